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
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sort"

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
	// CodeInvalidWitness is a --witness entry (or a [[results]] table's
	// witnesses entry) that names no implementation: one error for the
	// entry, not one per outcome.
	CodeInvalidWitness = diag.NewError("invalid-witness", "a --witness or [[results]] witnesses entry that names no implementation")
	// CodeUnwitnessedResults is results read with no witness given for
	// them: none of their outcomes counts. One warning, with the hint.
	CodeUnwitnessedResults = diag.NewWarning("unwitnessed-results", "outcomes from results files given without --witness or witnesses")
	// CodeInvalidTimestamp is a suite timestamp (JUnit) or an event's Time
	// (go test -json) that is not a date and time.
	CodeInvalidTimestamp = diag.NewError("invalid-timestamp", "a results file's timestamp that is not a date and time")
)

// PropertyTest is the JUnit property (and go test attribute, t.Attr) by
// which a test case names its test specifications itself.
const PropertyTest = "seg.test"

// The rerun policies (Source.Flaky; docs/results.md, "Reruns").
const (
	// FlakyFailed: every run of a case is an outcome of its own. The
	// default.
	FlakyFailed = "failed"
	// FlakyPassed: a case whose last run passed counts once, as passed;
	// its earlier runs are marked OptionRerunOf, and evaluate lists them
	// as excluded (flaky-rerun).
	FlakyPassed = "passed"
)

// The options the results outcomes carry besides a written outcome's.
const (
	// OptionRerunOf, on an earlier run of a case whose last run passed
	// (FlakyPassed), names the outcome of that last run.
	OptionRerunOf = "rerun-of"
	// OptionDate is the UTC day the case ran (YYYY-MM-DD), from the file.
	OptionDate = "date"
)

// Source is one results file and what applies to every outcome made from
// it.
type Source struct {
	// Path is the file's path relative to the root, with forward slashes;
	// it names the file in positions and in outcome IDs.
	Path string
	// Open opens the file's text from its start. The readers stream it: a
	// results file is never held in memory whole.
	Open func() (io.ReadCloser, error)
	// File is the file in the run's FileSet; its positions are the marks
	// the readers make (source.File.Mark).
	File *source.File
	// Witnesses are the implementation IDs every outcome of the file
	// witnesses (from --witness or the config's [[results]] table).
	Witnesses []string
	// Config is the configuration the tests ran under ("" for none).
	Config string
	// Flaky is the rerun policy: FlakyFailed ("" means it too) or
	// FlakyPassed.
	Flaky string
	// Verify are the properties whose values name the requirements a
	// case verifies (VerifyProperty); nil means DefaultVerifyProperties,
	// an empty list none.
	Verify []VerifyProperty
	// Origin says where Witnesses were given; the sources given together
	// share it, and the diagnostics about witnesses name it.
	Origin Origin
}

// Origin is where the witnesses of a group of results files were given.
type Origin struct {
	// Name is how a message names it: "--witness", or `the [[results]]
	// table for "build/*.xml"`; Entry names one entry, with a %q verb for
	// the entry: `--witness %q`, `witnesses entry %q of the [[results]]
	// table for "build/*.xml"`.
	Name, Entry string
	// Hint says how to give witnesses there, in sentences; Short says it
	// in a few words, for a message.
	Hint, Short string
	// Pos is where it is written (a [[results]] table's header in the
	// config file); no position for the command line.
	Pos source.Pos
}

// BytesSource is a source whose text is data (tests, stdin).
func BytesSource(path string, data []byte) Source {
	return Source{Path: path, Open: func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}}
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
	// Run is which run of the case this is in its file (1 for the first):
	// the k-th run of a name has the outcome ID "<path>::<name>#<k>" from
	// k = 2 on (OutcomeID).
	Run int
	// Pos is where the run is written: the `<testcase` start tag (or the
	// rerun element of a flaky test), or the line of the go test event
	// that ended the test.
	Pos source.Pos
	// Line is the line Pos is on, for sorting.
	Line int
	// Properties holds the case's JUnit properties (go test attributes),
	// name to values in file order, raw; seg.test is split by Outcomes.
	Properties map[string][]string
	// Message is the first lines of the failure, error or skip text (at
	// most MessageLines lines of MessageWidth bytes).
	Message string
	// Covers is set on a case that stands for every test of a Go package
	// whose tests did not run (build failure, crash before the first test):
	// it holds the package path, and a :cases: pattern that could name a
	// test of the package (Covers + "." + anything) matches the case.
	Covers string
	// Date is the UTC day the run happened (YYYY-MM-DD) as the file says
	// (the suite's JUnit timestamp, the go test event's Time); "" when the
	// file does not say.
	Date string
	// BadDate: the file's time for the run could not be read (an
	// invalid-timestamp error says where); the outcome counts only
	// against.
	BadDate bool
}

// Names returns the case's name followed by its alternative names.
func (c *Case) Names() []string {
	return append([]string{c.Name}, c.AltNames...)
}

// ReadCases reads the test cases of one results file, in file order with
// Run set. The format is told by content, not by the file's name: a first
// non-space byte '<' is JUnit XML, '{' is a `go test -json` stream (a stream
// whose first lines are plain build output, as `go test -json 2>&1` writes,
// is one too). Damage is the error diagnostic invalid-results at the file
// and line; the cases read completely before it are kept, and no case is
// made up for what could not be read.
func ReadCases(src Source) ([]Case, diag.List) {
	var cases []Case
	diags := scan(src, func(c *Case) { cases = append(cases, *c) })
	sort.SliceStable(cases, func(i, j int) bool { return cases[i].Line < cases[j].Line })
	return cases, diags
}

// scan streams the cases of src to emit, numbering each name's runs. The
// Case emit gets is reused after it returns.
func scan(src Source, emit func(*Case)) diag.List {
	if src.File == nil {
		// A source read on its own: its positions are in a file set of
		// their own.
		src.File = source.NewFileSet().Add(src.Path, 0, source.Newlines)
	}
	if src.Open == nil {
		return diag.List{invalid(src.File.Whole(), "the file cannot be read")}
	}
	rc, err := src.Open()
	if err != nil {
		return diag.List{invalid(src.File.Whole(), "%v", bare(err))}
	}
	defer rc.Close()
	head, f, err := sniff(rc)
	if err != nil {
		return diag.List{invalid(src.File.Mark(1, 1), "%v", bare(err))}
	}
	bom := 0
	if bytes.HasPrefix(head, []byte("\xef\xbb\xbf")) {
		head = head[3:]
		bom = 3
	}
	// The readers go on from the bytes sniff read: a buffer of the
	// default size, not one as large as the window sniff may need.
	r := bufio.NewReader(io.MultiReader(bytes.NewReader(head), rc))
	runs := map[string]int32{}
	numbered := func(c *Case) {
		runs[c.Name]++
		c.Run = int(runs[c.Name])
		emit(c)
	}
	switch f {
	case formatJUnit:
		return readJUnit(src.File, r, bom, numbered)
	case formatGoTest:
		return readGoTest(src.File, r, numbered)
	}
	what := "neither JUnit XML nor a go test -json stream"
	if f == formatEmpty {
		what = "the file is empty"
	}
	return diag.List{invalid(src.File.Mark(1, 1), "%s", what)}
}

// bare is err without the operation and path a *fs.PathError adds.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

type format int

const (
	formatUnknown format = iota
	formatEmpty
	formatJUnit
	formatGoTest
)

// sniffWindow is how far sniff looks for the first go test event after
// plain text (compiler output of `go test -json 2>&1`).
const sniffWindow = 1 << 20

// sniff reads the start of rc until it tells the format: at most
// sniffWindow bytes, read in steps that double from 512, so a small file
// costs a small buffer. It returns what it read (a byte-order mark
// included) for the reader to go on from.
func sniff(rc io.Reader) ([]byte, format, error) {
	var head []byte
	for n := 512; ; n = min(2*n, sniffWindow) {
		head = slices.Grow(head, n-len(head))
		m, err := io.ReadFull(rc, head[len(head):n])
		head = head[:len(head)+m]
		whole := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !whole {
			return nil, formatUnknown, err
		}
		f := sniffBytes(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), whole)
		if f != formatUnknown || whole || n == sniffWindow {
			return head, f, nil
		}
	}
}

// sniffBytes tells the format from head, the file's start (all of it
// when whole is set).
func sniffBytes(head []byte, whole bool) format {
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) == 0 {
		if whole {
			return formatEmpty
		}
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
