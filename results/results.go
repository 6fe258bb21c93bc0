// Package results turns the files test runners write (JUnit XML and
// `go test -json` streams) into outcome nodes, so the graph treats an
// automated test run exactly like a hand-written `.. outcome::` directive.
//
// The flow is: Load finds the results files, ReadCases reads the test cases
// of one file, Outcomes matches the cases to the test specifications'
// `:cases:` patterns (or a case's own seg.test property) and makes one
// parser.Node of Kind Outcome per matched case run, and Import writes those
// nodes as RST for `seg import`. docs/results.md describes the mapping.
package results

import (
	"bytes"
	"fmt"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// Results are one of these.
const (
	Passed  = "passed"
	Failed  = "failed"
	Error   = "error"
	Skipped = "skipped"
)

// Diagnostic codes of this package.
var (
	// CodeInvalidResults is a results file seg cannot read in full:
	// malformed or truncated XML or JSON, or a file of another format. The
	// cases read completely before the damage are kept.
	CodeInvalidResults = diag.NewError("invalid-results", "a test results file that cannot be read as JUnit XML or go test -json")
	// CodeNoResults is a `:cases:` pattern that matches no case of the
	// results files given.
	CodeNoResults = diag.NewWarning("no-results", "a :cases: pattern that matches no case in the results given")
	// CodeNoResultsFile is a results glob that matches no file.
	CodeNoResultsFile = diag.NewWarning("no-results-file", "a results glob that matches no file")
)

// PropertyTest is the JUnit property (and go test attribute, t.Attr) by
// which a test case names its test specifications itself.
const PropertyTest = "seg.test"

// Source is one results file and what applies to every outcome made from
// it.
type Source struct {
	// Path is the file's path relative to the root, with forward slashes;
	// it names the file in positions and in outcome IDs.
	Path string
	Data []byte
	// File is the file in the run's FileSet; its positions are the marks
	// the readers make (source.File.Mark).
	File *source.File
	// Witnesses are the implementation IDs every outcome of the file
	// witnesses (from --witness or the config's [[results]] table).
	Witnesses []string
	// Config is the configuration the tests ran under ("" for none).
	Config string
}

// Case is one run of one test case read from a results file.
type Case struct {
	// Name is the case's name as :cases: patterns see it: classname.name
	// for JUnit (name alone when classname is empty), package.Test or
	// package.Test/Sub for go test, the package path for a package whose
	// tests could not run.
	Name string
	// AltNames are further names that match the same case: pytest's node
	// ID forms (tests/test_x.py::TestC::test_m) and, when a JUnit writer
	// repeats the name as the classname (ctest, jest-junit), the name alone.
	AltNames []string
	// Result is passed, failed, error or skipped.
	Result string
	// N is the case run's 1-based order in the file; the outcome ID is
	// "<path>#<N>".
	N int
	// Pos is where the run is written: the `<testcase` start tag (or the
	// rerun element of a flaky test), or the line of the go test event
	// that ended the test.
	Pos source.Pos
	// Line is the line Pos is on, for sorting.
	Line int
	// Properties holds the case's JUnit properties (go test attributes),
	// name to values in file order, raw; seg.test is split by Outcomes.
	Properties map[string][]string
	// Message is the first line of the failure, error or skip text.
	Message string
	// Covers is set on a case that stands for every test of a Go package
	// whose tests did not run (build failure, crash before the first test):
	// it holds the package path, and a :cases: pattern that could name a
	// test of the package (Covers + "." + anything) matches the case.
	Covers string
}

// Names returns the case's name followed by its alternative names.
func (c *Case) Names() []string {
	return append([]string{c.Name}, c.AltNames...)
}

// ReadCases reads the test cases of one results file, in file order with
// N set. The format is told by content, not by the file's name: a first
// non-space byte '<' is JUnit XML, '{' is a `go test -json` stream (a stream
// whose first lines are plain build output, as `go test -json 2>&1` writes,
// is one too). Damage is the error diagnostic invalid-results at the file
// and line; the cases read completely before it are kept, and no case is
// made up for what could not be read.
func ReadCases(src Source) ([]Case, diag.List) {
	if src.File == nil {
		// A source read on its own: its positions are in a file set of
		// their own.
		src.File = source.NewFileSet().Add(src.Path, len(src.Data), source.Newlines)
	}
	data := src.Data
	bom := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		data, bom = data[3:], 3
	}
	var cases []Case
	var diags diag.List
	switch sniff(data) {
	case formatJUnit:
		cases, diags = readJUnit(src.File, data, bom)
	case formatGoTest:
		cases, diags = readGoTest(src.File, data)
	default:
		what := "neither JUnit XML nor a go test -json stream"
		if len(bytes.TrimSpace(data)) == 0 {
			what = "the file is empty"
		}
		return nil, diag.List{invalid(src.File.Mark(1, 1), "%s", what)}
	}
	for i := range cases {
		cases[i].N = i + 1
	}
	return cases, diags
}

type format int

const (
	formatUnknown format = iota
	formatJUnit
	formatGoTest
)

func sniff(data []byte) format {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 {
		return formatUnknown
	}
	switch t[0] {
	case '<':
		return formatJUnit
	case '{':
		return formatGoTest
	}
	// go test -json 2>&1 puts the compiler's plain-text output first.
	for len(t) > 0 {
		line := t
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			line, t = t[:i], t[i+1:]
		} else {
			t = nil
		}
		if bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte(`{"`)) {
			return formatGoTest
		}
	}
	return formatUnknown
}

func invalid(pos source.Pos, format string, args ...any) diag.Diagnostic {
	msg := fmt.Sprintf(format, args...)
	return diag.Diagnostic{
		Code:    CodeInvalidResults,
		Message: "invalid results file: " + msg,
		Detail: "seg could not read this results file in full. The test cases read " +
			"completely before this point are kept; nothing after it is used, and no " +
			"outcome is made for a case that could not be read. Re-run the tests so the " +
			"runner writes the whole file.",
		Span: source.At(pos),
	}
}
