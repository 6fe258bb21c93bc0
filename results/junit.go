package results

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// readJUnit reads the <testcase> elements of a JUnit XML file, at any depth
// under a <testsuites> or <testsuite> root. bom is the width of a byte order
// mark cut from the start of data (it shifts the columns of line 1).
func readJUnit(sf *source.File, data []byte, bom int) ([]Case, diag.List) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = charsetReader
	pos := func(line, col int) source.Pos {
		if line == 1 {
			col += bom
		}
		return sf.Mark(line, col)
	}

	var (
		cases   []Case
		depth   int // of the element being read
		roots   int
		root    string    // the root element's name
		tc      *testcase // the <testcase> being read, nil outside one
		capture *run      // the run whose message is taken from text
		capDep  int
		prop    *property // the <property> being read
	)
	for {
		line, col := dec.InputPos() // where the next token starts
		tok, err := dec.Token()
		if err == io.EOF {
			if roots == 0 {
				return nil, diag.List{invalid(pos(1, 1), "no XML element in the file")}
			}
			return cases, nil
		}
		if err != nil {
			return cases, diag.List{xmlDamage(dec, err, pos, tc)}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			name := t.Name.Local
			if depth == 1 {
				roots++
				if roots > 1 {
					return cases, diag.List{invalid(pos(line, col), "a second root element <%s>", name)}
				}
				if name != "testsuites" && name != "testsuite" {
					return nil, diag.List{invalid(pos(line, col),
						"root element <%s> is not <testsuites> or <testsuite>", name)}
				}
				root = name
				continue
			}
			if tc == nil {
				switch name {
				case "testcase":
					tc = &testcase{depth: depth, main: run{result: Passed, pos: pos(line, col), line: line}}
					tc.name, tc.alt = junitNames(attr(t, "classname"), attr(t, "name"))
				case "testsuite", "testsuites":
				default:
					// Suite properties, output, vendor extensions: nothing
					// in them is a case of the suite.
					if err := dec.Skip(); err != nil {
						return cases, diag.List{xmlDamage(dec, err, pos, nil)}
					}
					depth--
				}
				continue
			}
			switch depth - tc.depth {
			case 1:
				var r *run
				switch name {
				case "error":
					r = tc.set(Error, 3)
				case "failure":
					r = tc.set(Failed, 2)
				case "skipped":
					r = tc.set(Skipped, 1)
				case "flakyFailure", "rerunFailure":
					r = tc.rerun(Failed, pos(line, col), line)
				case "flakyError", "rerunError":
					r = tc.rerun(Error, pos(line, col), line)
				case "properties":
					tc.inProperties = true
				}
				if r != nil {
					r.message = firstLine(attr(t, "message"))
					// gotestsum and ctest write message="Failed": the
					// element's text, when there is any, says more.
					if r.message == "" || r.message == "Failed" {
						capture, capDep = r, depth
					}
				}
			case 2:
				if name == "property" && tc.inProperties {
					prop = &property{name: attr(t, "name")}
					if v, ok := attrOK(t, "value"); ok {
						prop.value, prop.hasValue = v, true
					}
				}
			}
		case xml.EndElement:
			if tc != nil {
				switch depth - tc.depth {
				case 0:
					cases = tc.emit(cases)
					tc = nil
				case 1:
					tc.inProperties = false
				case 2:
					if prop != nil {
						if prop.name != "" {
							if tc.props == nil {
								tc.props = map[string][]string{}
							}
							v := prop.value
							if !prop.hasValue {
								v = strings.TrimSpace(prop.text.String())
							}
							tc.props[prop.name] = append(tc.props[prop.name], v)
						}
						prop = nil
					}
				}
			}
			if capture != nil && depth == capDep {
				capture = nil
			}
			depth--
		case xml.Directive:
			// After the root only white space, comments and processing
			// instructions may follow (XML's Misc): anything else is a
			// file that does not end where the runner meant it to.
			if depth == 0 && roots > 0 {
				return cases, diag.List{invalid(pos(line, col), "a <!%s> declaration after the end of the root element <%s>", firstWord(t), root)}
			}
		case xml.CharData:
			if depth == 0 && roots > 0 {
				if l, c, ok := afterSpace(t, line, col); ok {
					return cases, diag.List{invalid(pos(l, c), "text after the end of the root element <%s>", root)}
				}
				continue
			}
			if prop != nil && !prop.hasValue {
				prop.text.Write(t)
			}
			if capture != nil {
				if l := firstLine(string(t)); l != "" {
					capture.message = l
					capture = nil
				}
			}
		}
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
	pos     source.Pos
	line    int
}

type property struct {
	name     string
	value    string
	hasValue bool
	text     strings.Builder
}

type testcase struct {
	depth        int
	name         string
	alt          []string
	main         run
	rank         int // of main.result: 0 passed, 1 skipped, 2 failed, 3 error
	reruns       []run
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

func (tc *testcase) rerun(result string, pos source.Pos, line int) *run {
	tc.reruns = append(tc.reruns, run{result: result, pos: pos, line: line})
	return &tc.reruns[len(tc.reruns)-1]
}

// emit appends the case's runs: the run the <testcase> element itself
// reports first, then every flaky or rerun element in file order.
func (tc *testcase) emit(cases []Case) []Case {
	for i := -1; i < len(tc.reruns); i++ {
		r := tc.main
		if i >= 0 {
			r = tc.reruns[i]
		}
		cases = append(cases, Case{
			Name:       tc.name,
			AltNames:   tc.alt,
			Result:     r.result,
			Pos:        r.pos,
			Line:       r.line,
			Properties: tc.props,
			Message:    r.message,
		})
	}
	return cases
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

// firstLine is the first line of text that says something: blank lines and
// go test's "=== RUN" banners (which gotestsum copies into its messages)
// are passed over.
func firstLine(s string) string {
	for s != "" {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "=== ") {
			return line
		}
	}
	return ""
}

// charsetReader accepts the single-byte encodings a JUnit writer may
// declare besides UTF-8.
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "us-ascii", "ascii", "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1":
		b, err := io.ReadAll(in)
		if err != nil {
			return nil, err
		}
		out := make([]byte, 0, len(b))
		for _, c := range b {
			out = utf8.AppendRune(out, rune(c))
		}
		return bytes.NewReader(out), nil
	}
	return nil, fmt.Errorf("unsupported encoding %q (use UTF-8)", label)
}
