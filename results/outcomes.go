package results

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"
)

// Outcomes reads every source and turns each case run that names a test
// specification into an outcome node, made so that code reading
// hand-written outcomes reads it the same way:
//
//   - Kind Outcome, Directive "outcome", Title the case name, Pos the
//     case's position, FromResults set;
//   - ID OutcomeID: "<source path>::<case name>", "#<k>" added for the
//     k-th run of the name in the file from k = 2 on. It is made by seg,
//     not written by a user, so it is not checked against the ID pattern
//     (it cannot clash with a written ID under the default pattern, which
//     has no ':');
//   - Options id, confirms (one link per test specification, sorted),
//     witnesses (the source's, those that name an implementation), result,
//     config (when set), date (the UTC day the file gives for the run,
//     when it gives one) and rerun-of (below); every option, value and link
//     is placed at the case's position;
//   - Body the first lines of the case's message;
//   - Broken when its witnesses were given wrong (invalid-witness) or its
//     file's time for it cannot be read (invalid-timestamp): such an
//     outcome counts only against its requirements.
//
// A case names the test specifications whose :cases: patterns match one
// of its names (or, for a package-level case, could name a test of the
// package), and the IDs listed in its seg.test properties (an ID there
// that is not a test specification is left for the graph to report, as it
// reports a written :confirms: link).
//
// A case whose properties name requirements (Source.Verify, by default
// DefaultVerifyProperties) is a test specification of its own too: the
// first run of its name in a file makes a node of Kind Test, ID TestID,
// at the case, with a verifies link to every requirement named (marked
// Partial for a partial property), and each of its runs confirms it. An
// ID there that names no requirement is left for the graph to report
// (unresolved-link or wrong-kind, at the case). These test specifications
// come after every outcome in the nodes returned, in the order of their
// cases.
//
// Under the rerun policy FlakyPassed, when the last run of a case name in
// a file passed and made an outcome, every earlier run's outcome gets the
// option rerun-of naming that last run's outcome; evaluate then lists the
// earlier runs as excluded (flaky-rerun) for the tests the last run
// confirms too.
//
// Sources are taken in the order given; a source whose Path was given
// before is passed over. Outcomes come in source order, then case order.
// unmatched are the case runs that name no test specification, each as
// little as a report lists of it (a file can hold millions). diags holds
// the sources' invalid-results and invalid-timestamp errors, an
// invalid-witness error for each witness entry of an origin that names no
// implementation, one unwitnessed-results warning when outcomes were made
// for an origin that gave no witnesses, and, when at least one source is
// given, a no-results warning for every :cases: pattern that matches no
// case of any source, in no particular order.
func Outcomes(files []*parser.File, sources []Source) (outcomes []parser.Node, unmatched []Unmatched, diags diag.List) {
	return OutcomesWith(files, nil, sources)
}

// OutcomesWith is Outcomes for a tree whose nodes are those of files and
// extra (the implementations made from code tags), which witnesses may
// name.
func OutcomesWith(files []*parser.File, extra []parser.Node, sources []Source) (outcomes []parser.Node, unmatched []Unmatched, diags diag.List) {
	var pats []Pattern
	for _, f := range files {
		if f != nil {
			pats = append(pats, Patterns(f.Nodes)...)
		}
	}
	m := newMatcher(pats)
	w := newWitnessCheck(files, extra)
	seen := map[string]bool{}
	var made madeTests
	for _, src := range sources {
		if seen[src.Path] {
			continue
		}
		seen[src.Path] = true
		o := w.origin(src)
		start := len(outcomes)
		var runs []int32    // run number of each outcome of this source
		var lastRun flakies // last run of each name, under FlakyPassed
		if src.Flaky == FlakyPassed {
			lastRun = flakies{}
		}
		props := src.verifyProperties()
		ds := scan(src, func(c *Case) {
			tests := m.tests(c)
			if reqs := verifiedBy(c, props); len(reqs) > 0 {
				tests = addTest(tests, made.test(&src, c, reqs))
			}
			if lastRun != nil {
				lastRun[c.Name] = flaky{run: int32(c.Run), passed: c.Result == Passed, made: len(tests) > 0}
			}
			if len(tests) == 0 {
				unmatched = append(unmatched, Unmatched{Name: c.Name, Result: c.Result, Pos: c.Pos})
				return
			}
			n := outcomeNode(src, c, tests, o.good)
			o.annotate(&n)
			n.Broken = o.broken || c.BadDate
			outcomes = append(outcomes, n)
			runs = append(runs, int32(c.Run))
			o.madeOne(&src)
		})
		diags = append(diags, ds...)
		lastRun.mark(src.Path, outcomes[start:], runs)
	}
	diags = append(diags, w.diagnostics()...)
	outcomes = append(outcomes, made.nodes...)
	if len(sources) > 0 {
		for i, p := range pats {
			if !m.used[i] {
				diags = append(diags, diag.Diagnostic{
					Code:    CodeNoResults,
					Message: fmt.Sprintf("no test case in the results matches %q", p.Text),
					Detail: fmt.Sprintf("The :cases: pattern %q of test specification %s matches no case "+
						"of the results files given, so it adds no outcome. Check the pattern against "+
						"the case names: classname.name for JUnit XML (or pytest's "+
						"path/to/test_x.py::test_y), package.TestName/Sub for go test -json.",
						p.Text, p.Test),
					Span: p.Span,
				})
			}
		}
	}
	return outcomes, unmatched, diags
}

// addTest adds id to the sorted, distinct IDs tests.
func addTest(tests []string, id string) []string {
	i := sort.SearchStrings(tests, id)
	if i < len(tests) && tests[i] == id {
		return tests
	}
	return slices.Insert(tests, i, id)
}

// Unmatched is a case run that names no test specification.
type Unmatched struct {
	Name   string
	Result string
	Pos    source.Pos
}

// flakies holds the last run of each case name of one file, under the
// rerun policy FlakyPassed (nil otherwise).
type flakies map[string]flaky

type flaky struct {
	run    int32
	passed bool
	made   bool // the run made an outcome
}

// mark sets rerun-of on the outcomes (of the file at path, with their run
// numbers) that ran before a last run that passed and made an outcome.
func (f flakies) mark(path string, outcomes []parser.Node, runs []int32) {
	if f == nil {
		return
	}
	for i := range outcomes {
		n := &outcomes[i]
		last := f[n.Title]
		if runs[i] >= last.run || !last.passed || !last.made {
			continue
		}
		id := OutcomeID(path, n.Title, int(last.run))
		n.Options = append(n.Options, parser.Option{Name: OptionRerunOf, Value: id, Pos: n.Pos, ValuePos: n.Pos})
	}
}

// OutcomeID is the ID of the outcome made from run k (1-based) of the case
// called name in the results file at path: "<path>::<name>", with "#<k>"
// added from the second run on. A name that itself ends in '#' and digits
// gets "#<k>" on its first run too, so that no two runs share an ID.
func OutcomeID(path, name string, k int) string {
	id := path + "::" + name
	if k >= 2 || endsInRun(name) {
		id += "#" + strconv.Itoa(k)
	}
	return id
}

// endsInRun reports whether name ends in '#' and one or more digits.
func endsInRun(name string) bool {
	i := strings.LastIndexByte(name, '#')
	if i < 0 || i == len(name)-1 {
		return false
	}
	for _, r := range name[i+1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func outcomeNode(src Source, c *Case, tests []string, witnesses []string) parser.Node {
	at := source.At(c.Pos)
	links := func(ids []string) []parser.Link {
		ls := make([]parser.Link, len(ids))
		for i, id := range ids {
			ls[i] = parser.Link{ID: id, Span: at}
		}
		return ls
	}
	opt := func(name, value string, ls []parser.Link) parser.Option {
		return parser.Option{Name: name, Value: value, Pos: c.Pos, ValuePos: c.Pos, Links: ls}
	}
	id := OutcomeID(src.Path, c.Name, c.Run)
	opts := make([]parser.Option, 0, 6)
	opts = append(opts,
		opt("id", id, nil),
		opt("confirms", strings.Join(tests, ", "), links(tests)))
	if len(witnesses) > 0 {
		opts = append(opts, opt("witnesses", strings.Join(witnesses, ", "), links(witnesses)))
	}
	opts = append(opts, opt("result", c.Result, nil))
	if src.Config != "" {
		opts = append(opts, opt("config", src.Config, nil))
	}
	if c.Date != "" {
		opts = append(opts, opt(OptionDate, c.Date, nil))
	}
	n := parser.Node{
		Kind:        parser.Outcome,
		Directive:   "outcome",
		ID:          id,
		Title:       c.Name,
		Pos:         c.Pos,
		Options:     opts,
		Body:        c.Message,
		Parent:      -1,
		FromResults: true,
		CaseNames:   c.Names(),
	}
	n.Revision = revision.Of(parser.Canonical(&n, parser.LinkOptions(parser.Outcome)))
	return n
}

// matcher finds the test specifications a case names. Patterns without
// wildcards are looked up by name; the others are tried in turn, after a
// check of their literal prefix.
type matcher struct {
	pats  []Pattern
	exact map[string][]int
	wild  []int
	pre   []string // literal prefix of each pattern
	used  []bool
}

func newMatcher(pats []Pattern) *matcher {
	m := &matcher{pats: pats, exact: map[string][]int{}, pre: make([]string, len(pats)), used: make([]bool, len(pats))}
	for i, p := range pats {
		if hasMeta(p.Text) {
			m.wild = append(m.wild, i)
			m.pre[i] = literalPrefix(p.Text)
		} else {
			m.exact[p.Text] = append(m.exact[p.Text], i)
		}
	}
	return m
}

// tests returns the sorted, distinct IDs of the test specifications c
// names.
func (m *matcher) tests(c *Case) []string {
	var ids []string
	hit := func(i int) {
		m.used[i] = true
		ids = append(ids, m.pats[i].Test)
	}
	for _, name := range c.Names() {
		for _, i := range m.exact[name] {
			hit(i)
		}
		for _, i := range m.wild {
			if strings.HasPrefix(name, m.pre[i]) && Match(m.pats[i].Text, name) {
				hit(i)
			}
		}
	}
	if c.Covers != "" {
		prefix := c.Covers + "."
		for i, p := range m.pats {
			if matchPrefix(p.Text, prefix) {
				hit(i)
			}
		}
	}
	for _, v := range c.Properties[PropertyTest] {
		for _, e := range splitList(v) {
			ids = append(ids, e.text)
		}
	}
	if len(ids) < 2 {
		return ids
	}
	sort.Strings(ids)
	out := ids[:1]
	for _, id := range ids[1:] {
		if id != out[len(out)-1] {
			out = append(out, id)
		}
	}
	return out
}
