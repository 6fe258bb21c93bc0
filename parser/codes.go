package parser

// CodeInfo documents one stable code: a diagnostic code or a verdict
// reason code. Codes are never renamed; docs/codes.md has a section for
// each, and a test keeps the two in step.
type CodeInfo struct {
	Code     string
	Severity Severity // 0 for reason codes
	Summary  string
}

// DiagnosticCodes lists every diagnostic code seg can emit.
var DiagnosticCodes = []CodeInfo{
	{"malformed-directive", Error, "a node's directive block cannot be read"},
	{"missing-id", Error, "a node has no :id:"},
	{"invalid-id", Error, "an ID does not match the ID pattern"},
	{"duplicate-id", Error, "two nodes share an ID"},
	{"unknown-option", Error, "an option the node's kind does not take"},
	{"duplicate-option", Error, "one option given twice on one node"},
	{"missing-option", Error, "an outcome without :confirms: or :result:, a waiver without :excuses:"},
	{"invalid-result", Error, "a :result: outside passed, failed, skipped, error"},
	{"invalid-state", Error, "a link state outside active, suspect, retired"},
	{"state-not-allowed", Error, "a state on a link option that takes none"},
	{"invalid-date", Error, "an :expires: that is not a YYYY-MM-DD date"},
	{"unresolved-link", Error, "a link to an ID that is not defined"},
	{"wrong-kind", Error, "a link to a node of the wrong kind"},
	{"refinement-cycle", Error, "requirements refine each other in a cycle"},
	{"invalid-encoding", Error, "a file that is not valid UTF-8"},
	{"line-too-long", Error, "a file with a line over 10,000 characters, which docutils refuses to read"},
	{"malformed-link", Error, "a sphinx-needs link entry with an unclosed bracket or text after its condition"},
	{"unreadable-file", Error, "a file of the tree that cannot be read"},
	{"invalid-results", Error, "a test results file that cannot be read as JUnit XML or go test -json"},
	{"internal-error", Error, "seg failed on its own (a bug); the rest of the tree is still checked"},
	{"unwitnessed-outcome", Warning, "an outcome with confirms but no witnesses edge"},
	{"expired-waiver", Warning, "a waiver past its :expires: date"},
	{"unused-waiver", Warning, "a waiver that excuses only passed or skipped outcomes"},
	{"orphan-test", Warning, "a test specification that verifies nothing"},
	{"duplicate-link", Warning, "the same target twice in one link option"},
	{"no-results", Warning, "a :cases: pattern that matches no case in the results given"},
	{"no-results-file", Warning, "a results glob that matches no file"},
}

// ReasonCodes lists every reason code a verdict can carry. Blocking ones
// make a requirement unsatisfied; the others are notes in explanations.
var ReasonCodes = []CodeInfo{
	{"no-active-verifies", 0, "a leaf with no active verifies edge (leaf rule, clause 1)"},
	{"no-active-implements", 0, "a leaf with no active implements edge (leaf rule, clause 2)"},
	{"no-confirming-outcome", 0, "a test the leaf names has no witnessed, non-skipped outcome (clause 3)"},
	{"outcome-failed", 0, "a confirming outcome failed or errored and no waiver in force excuses it (clause 4)"},
	{"outcome-invalid", 0, "a confirming outcome has a missing or invalid :result:"},
	{"child-unsatisfied", 0, "a requirement that refines this non-leaf is unsatisfied"},
	{"inactive-edge", 0, "a verifies or implements edge is suspect, retired or invalid"},
	{"on-cycle", 0, "the requirement sits on a refinement cycle"},
	{"outcome-unwitnessed", 0, "note: an outcome excluded because it witnesses no implementation"},
	{"outcome-skipped", 0, "note: a skipped outcome, listed but adding no evidence"},
	{"outcome-excused", 0, "note: a failed outcome excused by a waiver in force"},
	{"own-outcomes-not-counted", 0, "note: a non-leaf's own test outcomes are not counted"},
}

// LookupCode finds a diagnostic or reason code.
func LookupCode(code string) (CodeInfo, bool) {
	for _, list := range [][]CodeInfo{DiagnosticCodes, ReasonCodes} {
		for _, c := range list {
			if c.Code == code {
				return c, true
			}
		}
	}
	return CodeInfo{}, false
}
