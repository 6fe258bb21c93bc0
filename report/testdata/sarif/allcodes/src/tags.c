// req-Id:
// @ A requirement in code, REQ_IN_CODE, sreq, [REQ-1]
// req-Id: REQ-1
int x;
