package results

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// readJUnit reads the <testcase> elements of a JUnit XML stream, at any
// depth under a <testsuites> or <testsuite> root, and emits each run of a
// case when its element ends. bom is the width of a byte order mark cut
// from the start (it shifts the columns of line 1).
func readJUnit(sf *source.File, r io.Reader, bom int, emit func(*Case)) diag.List {
	j := &junitReader{dec: xml.NewDecoder(r), sf: sf, bom: bom, emit: emit}
	j.dec.CharsetReader = charsetReader
	for j.next() {
	}
	return j.diags
}

// junitReader is the state of one JUnit XML stream being read.
type junitReader struct {
	dec   *xml.Decoder
	sf    *source.File
	bom   int
	emit  func(*Case)
	diags diag.List

	depth   int // of the element being read
	roots   int
	root    string    // the root element's name
	suites  []suite   // the suites the reader is in, innermost last
	tc      *testcase // the <testcase> being read, nil outside one
	capture *run      // the run whose message is taken from text
	capDep  int
	prop    *property // the <property> being read
	cur     Case      // the case emitted, reused
}

// pos is the position of line and col of the stream.
func (j *junitReader) pos(line, col int) source.Pos {
	if line == 1 {
		col += j.bom
	}
	return j.sf.Mark(line, col)
}

// stop records d, a damage after which nothing more is read, and returns
// false (for next).
func (j *junitReader) stop(d diag.Diagnostic) bool {
	j.diags = append(j.diags, d)
	return false
}

// next reads and applies one token; it returns false at the end of the
// stream or at damage that ends the reading.
func (j *junitReader) next() bool {
	line, col := j.dec.InputPos() // where the next token starts
	tok, err := j.dec.Token()
	if err == io.EOF {
		if j.roots == 0 {
			j.diags = append(j.diags, invalid(j.pos(1, 1), "no XML element in the file"))
		}
		return false
	}
	if err != nil {
		return j.stop(xmlDamage(j.dec, err, j.pos, j.tc))
	}
	switch t := tok.(type) {
	case xml.StartElement:
		return j.start(t, line, col)
	case xml.EndElement:
		j.end()
	case xml.Directive:
		// After the root only white space, comments and processing
		// instructions may follow (XML's Misc): anything else is a
		// file that does not end where the runner meant it to.
		if j.depth == 0 && j.roots > 0 {
			return j.stop(invalid(j.pos(line, col), "a <!%s> declaration after the end of the root element <%s>", firstWord(t), j.root))
		}
	case xml.CharData:
		return j.text(t, line, col)
	}
	return true
}

// start opens an element that starts at line and col.
func (j *junitReader) start(t xml.StartElement, line, col int) bool {
	j.depth++
	name := t.Name.Local
	if j.depth == 1 {
		j.roots++
		if j.roots > 1 {
			return j.stop(invalid(j.pos(line, col), "a second root element <%s>", name))
		}
		if name != "testsuites" && name != "testsuite" {
			return j.stop(invalid(j.pos(line, col),
				"root element <%s> is not <testsuites> or <testsuite>", name))
		}
		j.root = name
	}
	if j.tc == nil {
		return j.startOutsideCase(t, line, col)
	}
	switch j.depth - j.tc.depth {
	case 1:
		j.startCaseChild(t, line, col)
	case 2:
		if name == "property" && j.tc.inProperties {
			j.prop = &property{name: attr(t, "name")}
			if v, ok := attrOK(t, "value"); ok {
				j.prop.value, j.prop.hasValue = v, true
			}
		}
	}
	return true
}

// startOutsideCase opens an element outside any <testcase>: a case, a
// suite, or something to pass over whole.
func (j *junitReader) startOutsideCase(t xml.StartElement, line, col int) bool {
	switch name := t.Name.Local; name {
	case "testcase":
		j.tc = &testcase{depth: j.depth, main: run{result: Passed, pos: j.pos(line, col), line: line}}
		j.tc.name, j.tc.alt = junitNames(attr(t, "classname"), attr(t, "name"))
		// GoogleTest writes a test it did not run (DISABLED_, filtered
		// out) as status="notrun" with no child element, and one that
		// GTEST_SKIP ended as result="skipped": neither ran to a pass.
		// A result element inside still says more (and a graver one
		// wins).
		if attr(t, "status") == "notrun" || attr(t, "result") == "skipped" {
			j.tc.main.result = Skipped
		}
		if len(j.suites) > 0 {
			j.tc.suite = j.suites[len(j.suites)-1]
		}
	case "testsuite", "testsuites":
		j.startSuite(t, line, col)
	default:
		// Suite properties, output, vendor extensions: nothing
		// in them is a case of the suite.
		if err := j.dec.Skip(); err != nil {
			return j.stop(xmlDamage(j.dec, err, j.pos, nil))
		}
		j.depth--
	}
	return true
}

// startSuite opens a suite, which dates its cases by its own timestamp or
// by its parent's.
func (j *junitReader) startSuite(t xml.StartElement, line, col int) {
	s := suite{depth: j.depth}
	if len(j.suites) > 0 {
		s.date, s.bad = j.suites[len(j.suites)-1].date, j.suites[len(j.suites)-1].bad
	}
	if ts, ok := attrOK(t, "timestamp"); ok && strings.TrimSpace(ts) != "" {
		day, err := junitDay(ts)
		s.date, s.bad = day, err != nil
		if err != nil {
			j.diags = append(j.diags, badTimestamp(j.pos(line, col), "the timestamp %q of <%s> is not a date and time", ts, t.Name.Local))
		}
	}
	j.suites = append(j.suites, s)
}

// startCaseChild opens an element right under the <testcase>: a result
// (of the case itself or of another run of it) or its properties.
func (j *junitReader) startCaseChild(t xml.StartElement, line, col int) {
	tc := j.tc
	var r *run
	switch t.Name.Local {
	case "error":
		r = tc.set(Error, 3)
	case "failure":
		r = tc.set(Failed, 2)
	case "skipped":
		r = tc.set(Skipped, 1)
	case "flakyFailure":
		r = tc.flaky(Failed, j.pos(line, col), line)
	case "flakyError":
		r = tc.flaky(Error, j.pos(line, col), line)
	case "rerunFailure":
		r = tc.rerun(Failed, j.pos(line, col), line)
	case "rerunError":
		r = tc.rerun(Error, j.pos(line, col), line)
	case "properties":
		tc.inProperties = true
	}
	if r != nil {
		r.message = firstLines(attr(t, "message"))
		// gotestsum and ctest write message="Failed": the
		// element's text, when there is any, says more.
		if r.message == "" || r.message == "Failed" {
			j.capture, j.capDep = r, j.depth
			r.text = &bounded{}
		}
	}
}

// end closes the element being read.
func (j *junitReader) end() {
	if j.tc != nil {
		switch j.depth - j.tc.depth {
		case 0:
			j.tc.emit(&j.cur, j.emit)
			j.tc = nil
		case 1:
			j.tc.inProperties = false
		case 2:
			j.endProperty()
		}
	} else if n := len(j.suites); n > 0 && j.suites[n-1].depth == j.depth {
		j.suites = j.suites[:n-1]
	}
	if j.capture != nil && j.depth == j.capDep {
		if m := firstLines(j.capture.text.String()); m != "" {
			j.capture.message = m
		}
		j.capture.text = nil
		j.capture = nil
	}
	j.depth--
}

// endProperty adds the <property> being read, if any, to its case.
func (j *junitReader) endProperty() {
	prop := j.prop
	if prop == nil {
		return
	}
	if prop.name != "" {
		tc := j.tc
		if tc.props == nil {
			tc.props = map[string][]string{}
		}
		v := prop.value
		if !prop.hasValue {
			v = strings.TrimSpace(prop.text.String())
		}
		tc.props[prop.name] = append(tc.props[prop.name], v)
	}
	j.prop = nil
}

// text takes character data that starts at line and col.
func (j *junitReader) text(t xml.CharData, line, col int) bool {
	if j.depth == 0 && j.roots > 0 {
		if l, c, ok := afterSpace(t, line, col); ok {
			return j.stop(invalid(j.pos(l, c), "text after the end of the root element <%s>", j.root))
		}
		return true
	}
	if j.prop != nil && !j.prop.hasValue {
		j.prop.text.Write(t)
	}
	if j.capture != nil {
		j.capture.text.Write(t)
	}
	return true
}

// suite is a <testsuite> (or <testsuites>) element the reader is in: its
// depth and the day its timestamp names, its own or its parent's.
type suite struct {
	depth int
	date  string
	bad   bool
}

// junitDay is the UTC day of a JUnit timestamp. Writers use ISO 8601 with
// or without a zone (Surefire, pytest and jest-junit write local time
// without one, which is read as UTC), with or without fractions of a
// second, with 'T' or a space between date and time.
func junitDay(ts string) (string, error) {
	ts = strings.TrimSpace(ts)
	for _, layout := range []string{
		"2006-01-02T15:04:05.999999999Z07:00",
		"2006-01-02T15:04:05.999999999Z0700",
		"2006-01-02T15:04:05.999999999",
		"2006-01-02 15:04:05.999999999Z07:00",
		"2006-01-02 15:04:05.999999999",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04",
		"2006-01-02",
	} {
		if t, err := time.Parse(layout, ts); err == nil {
			return t.UTC().Format(time.DateOnly), nil
		}
	}
	return "", fmt.Errorf("not a date and time: %q", ts)
}

func badTimestamp(p source.Pos, format string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{
		Code:    CodeInvalidTimestamp,
		Message: fmt.Sprintf(format, args...),
		Detail: "seg dates each outcome it makes from a results file by the file's own time (an ISO 8601 " +
			"date and time; UTC when it names no zone). The outcomes of the cases it dates count only " +
			"against their requirements, as an outcome with a bad :date: does.",
		Span: source.At(p),
	}
}

// afterSpace returns where the first character of text that is not XML
// white space is, text starting at line and col; ok is false when there is
// none.
func afterSpace(text []byte, line, col int) (int, int, bool) {
	for _, b := range text {
		switch b {
		case '\n':
			line, col = line+1, 1
		case ' ', '\t', '\r':
			col++
		default:
			return line, col, true
		}
	}
	return 0, 0, false
}

func firstWord(d xml.Directive) string {
	w, _, _ := strings.Cut(strings.TrimSpace(string(d)), " ")
	return w
}

// xmlDamage describes a decoding error at the line the decoder reports;
// cut is the test case the damage cut short, if any.
func xmlDamage(dec *xml.Decoder, err error, pos func(line, col int) source.Pos, cut *testcase) diag.Diagnostic {
	line, col := dec.InputPos()
	msg := err.Error()
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg = se.Msg
		if se.Line != line {
			line, col = se.Line, 0
		}
		if se.Msg == "unexpected EOF" {
			msg = "the XML ends before its elements are closed (truncated?)"
		}
	}
	msg = strings.TrimPrefix(msg, "xml: ")
	d := invalid(pos(line, col), "%s", msg)
	if cut != nil {
		d.Related = []diag.Related{{
			Span:    source.At(cut.main.pos),
			Message: fmt.Sprintf("test case %q is cut short here and left out", cut.name),
		}}
	}
	return d
}

type run struct {
	result  string
	message string
	text    *bounded // the element's text, while it is read for a message
	pos     source.Pos
	line    int
}

type property struct {
	name     string
	value    string
	hasValue bool
	text     bounded
}

type testcase struct {
	depth        int
	name         string
	alt          []string
	suite        suite
	main         run
	rank         int   // of main.result: 0 passed, 1 skipped, 2 failed, 3 error
	flakes       []run // flakyFailure, flakyError: runs before main
	reruns       []run // rerunFailure, rerunError: runs after main
	props        map[string][]string
	inProperties bool
}

// set records a result element of the case itself; the gravest one wins
// (error over failure over skipped).
func (tc *testcase) set(result string, rank int) *run {
	if rank <= tc.rank {
		return nil
	}
	tc.rank = rank
	tc.main.result, tc.main.message = result, ""
	return &tc.main
}

func (tc *testcase) flaky(result string, pos source.Pos, line int) *run {
	tc.flakes = append(tc.flakes, run{result: result, pos: pos, line: line})
	return &tc.flakes[len(tc.flakes)-1]
}

func (tc *testcase) rerun(result string, pos source.Pos, line int) *run {
	tc.reruns = append(tc.reruns, run{result: result, pos: pos, line: line})
	return &tc.reruns[len(tc.reruns)-1]
}

// emit gives the case's runs in the order they ran: Surefire writes a
// test that failed and then passed on a rerun as a <testcase> (the last,
// passing run) holding a flakyFailure or flakyError per earlier run, and a
// test that failed on every run as a <testcase> with its first failure
// followed by a rerunFailure or rerunError per later run.
func (tc *testcase) emit(c *Case, emit func(*Case)) {
	runs := make([]*run, 0, 1+len(tc.flakes)+len(tc.reruns))
	for i := range tc.flakes {
		runs = append(runs, &tc.flakes[i])
	}
	runs = append(runs, &tc.main)
	for i := range tc.reruns {
		runs = append(runs, &tc.reruns[i])
	}
	for _, r := range runs {
		*c = Case{
			Name:       tc.name,
			AltNames:   tc.alt,
			Result:     r.result,
			Pos:        r.pos,
			Line:       r.line,
			Properties: tc.props,
			Message:    r.message,
			Date:       tc.suite.date,
			BadDate:    tc.suite.bad,
		}
		emit(c)
	}
}

// junitNames gives a JUnit case's name and its alternative names.
func junitNames(classname, name string) (string, []string) {
	switch {
	case classname == "":
		return name, nil
	case name == "":
		return classname, nil
	case classname == name: // ctest and jest-junit repeat the name
		return classname + "." + name, []string{name}
	}
	return classname + "." + name, pytestIDs(classname, name)
}

// pytestIDs gives the pytest node IDs a dotted classname may stand for:
// pytest writes tests/unit/test_x.py::TestC::test_m as classname
// "tests.unit.test_x.TestC", name "test_m", and the classname does not say
// where the module path ends, so every split is offered.
func pytestIDs(classname, name string) []string {
	if strings.ContainsAny(classname, "/\\ \t:") {
		return nil // not a dotted Python path (a Go package, a sentence)
	}
	parts := strings.Split(classname, ".")
	for _, p := range parts {
		if p == "" {
			return nil
		}
	}
	ids := make([]string, 0, len(parts))
	for i := len(parts); i >= 1; i-- {
		var b strings.Builder
		b.WriteString(strings.Join(parts[:i], "/"))
		b.WriteString(".py")
		for _, p := range parts[i:] {
			b.WriteString("::")
			b.WriteString(p)
		}
		b.WriteString("::")
		b.WriteString(name)
		ids = append(ids, b.String())
	}
	return ids
}

func attr(e xml.StartElement, name string) string {
	v, _ := attrOK(e, name)
	return v
}

func attrOK(e xml.StartElement, name string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

// The bounds of a case's message: the first lines of what the runner
// wrote, enough to tell one failure from another in a report.
const (
	MessageLines = 5
	MessageWidth = 240 // bytes a line, cut at a character boundary
	// messageText is how much text is kept to find those lines in.
	messageText = 16 << 10
)

// bounded keeps the first messageText bytes written to it.
type bounded struct{ strings.Builder }

func (b *bounded) Write(p []byte) {
	if room := messageText - b.Len(); room > 0 {
		b.Builder.Write(p[:min(len(p), room)])
	}
}

// firstLines is the first MessageLines lines of text that say something:
// blank lines and go test's "=== RUN" banners (which gotestsum copies into
// its messages) are passed over, each line is trimmed, and a long line is
// cut to MessageWidth bytes with an ellipsis.
func firstLines(s string) string {
	var lines []string
	for s != "" && len(lines) < MessageLines {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "=== ") {
			continue
		}
		lines = append(lines, cut(line))
	}
	return strings.Join(lines, "\n")
}

// cut shortens line to MessageWidth bytes, at a character boundary.
func cut(line string) string {
	if len(line) <= MessageWidth {
		return line
	}
	i := MessageWidth - len("…")
	for i > 0 && !utf8.RuneStart(line[i]) {
		i--
	}
	return line[:i] + "…"
}

// charsetReader accepts the single-byte encodings a JUnit writer may
// declare besides UTF-8, decoding them as they are read.
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "us-ascii", "ascii", "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1":
		return &latin1{r: bufio.NewReader(in)}, nil
	}
	return nil, fmt.Errorf("unsupported encoding %q (use UTF-8)", label)
}

// latin1 decodes ISO 8859-1 (of which ASCII is a part) into UTF-8.
type latin1 struct {
	r    *bufio.Reader
	rest []byte // the second byte of a character that did not fit
}

func (l *latin1) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(l.rest) > 0 {
			p[n] = l.rest[0]
			l.rest = l.rest[1:]
			n++
			continue
		}
		c, err := l.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if c < utf8.RuneSelf {
			p[n] = c
			n++
			continue
		}
		var enc [2]byte
		utf8.EncodeRune(enc[:], rune(c))
		p[n] = enc[0]
		n++
		l.rest = append(l.rest[:0], enc[1])
	}
	return n, nil
}
