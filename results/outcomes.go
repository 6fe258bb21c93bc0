package results

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// Outcomes reads every source and turns each case run that names a test
// specification into an outcome node, made so that code reading
// hand-written outcomes reads it the same way:
//
//   - Kind Outcome, Directive "outcome", Title the case name, Pos the
//     case's position;
//   - ID "<source path>#<N>": made by seg, not written by a user, so it is
//     not checked against the ID pattern (it cannot clash with a written
//     ID under the default pattern, which has no '#');
//   - Options id, confirms (one link per test specification, sorted),
//     witnesses (when the source has any), result, and config (when set);
//     every option, value and link is placed at the case's position;
//   - Body the case's message.
//
// A case names the test specifications whose :cases: patterns match one
// of its names (or, for a package-level case, could name a test of the
// package), and the IDs listed in its seg.test properties (an ID there
// that is not a test specification is left for the graph to report, as it
// reports a written :confirms: link).
//
// Sources are taken in the order given; a source whose Path was given
// before is passed over. Outcomes come in source order, then case order.
// unmatched are the case runs that name no test specification. diags holds
// the sources' invalid-results errors and, when at least one source is
// given, a no-results warning for every :cases: pattern that matches no
// case of any source, in no particular order.
func Outcomes(files []*parser.File, sources []Source) (outcomes []parser.Node, unmatched []Case, diags diag.List) {
	var pats []Pattern
	for _, f := range files {
		if f != nil {
			pats = append(pats, Patterns(f.Nodes)...)
		}
	}
	m := newMatcher(pats)
	seen := map[string]bool{}
	for _, src := range sources {
		if seen[src.Path] {
			continue
		}
		seen[src.Path] = true
		cases, ds := ReadCases(src)
		diags = append(diags, ds...)
		for i := range cases {
			c := &cases[i]
			tests := m.tests(c)
			if len(tests) == 0 {
				unmatched = append(unmatched, *c)
				continue
			}
			outcomes = append(outcomes, outcomeNode(src, c, tests))
		}
	}
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

// OutcomeID is the ID of the outcome made from case run n of the results
// file at path.
func OutcomeID(path string, n int) string { return path + "#" + strconv.Itoa(n) }

func outcomeNode(src Source, c *Case, tests []string) parser.Node {
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
	id := OutcomeID(src.Path, c.N)
	opts := []parser.Option{
		opt("id", id, nil),
		opt("confirms", strings.Join(tests, ", "), links(tests)),
	}
	if len(src.Witnesses) > 0 {
		opts = append(opts, opt("witnesses", strings.Join(src.Witnesses, ", "), links(src.Witnesses)))
	}
	opts = append(opts, opt("result", c.Result, nil))
	if src.Config != "" {
		opts = append(opts, opt("config", src.Config, nil))
	}
	n := parser.Node{
		Kind:      parser.Outcome,
		Directive: "outcome",
		ID:        id,
		Title:     c.Name,
		Pos:       c.Pos,
		Options:   opts,
		Body:      c.Message,
		Parent:    -1,

		FromResults: true,
		CaseNames:   c.Names(),
	}
	n.Revision = parser.Revision(parser.Canonical(&n, parser.LinkOptions(parser.Outcome)))
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
