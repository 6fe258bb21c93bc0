package check

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/results"
	"github.com/seg-trace/seg/source"
)

// resultsRead is what the results files of a run gave.
type resultsRead struct {
	// nodes are every node the results made: the outcomes, then the test
	// specifications of cases that name requirements (the graph's extra
	// nodes); outcomes is the first part of it.
	nodes     []parser.Node
	outcomes  []parser.Node
	unmatched []results.Unmatched
	diags     diag.List
}

// snippetLimit is the largest results file whose lines a report may
// quote: a larger one is streamed, never held, so its diagnostics come
// without a snippet.
const snippetLimit = 8 << 20

// loadResults turns the results files named on the command line (paths
// relative to the working folder) and by the config's [[results]] tables
// (paths relative to the root) into outcome nodes. rm, when not nil, is
// what the last run of a Live check left (resultsMemo).
func (t *Tree) loadResults(o Options, fset *source.FileSet, files []*parser.File, code []parser.Node, rm *resultsMemo) (resultsRead, error) {
	// The command line comes first and wins over the config.
	rs := resultsSources{root: t.Root, seen: map[string]bool{}}
	if len(o.Results) > 0 {
		patterns, err := t.rootPatterns(o.Results)
		if err != nil {
			return resultsRead{diags: rs.diags}, err
		}
		base := results.Source{Witnesses: o.Witnesses, Config: o.ResultsConfig,
			Flaky: flaky(t.Config.ResultsFlaky), Origin: results.CommandLine, Verify: t.verifyProperties()}
		if err := rs.add(patterns, base); err != nil {
			return resultsRead{diags: rs.diags}, err
		}
	}
	var cfgFile *source.File
	for _, r := range t.Config.Results {
		base := results.Source{Witnesses: r.Witnesses, Config: r.Config, Flaky: flaky(r.Flaky), Origin: t.tableOrigin(r, fset, &cfgFile), Verify: t.verifyProperties()}
		if err := rs.add([]string{r.Path}, base); err != nil {
			return resultsRead{diags: rs.diags}, err
		}
	}
	out := resultsRead{diags: rs.diags}
	if len(rs.sources) == 0 {
		if rm != nil {
			rm.last = nil
		}
		return out, nil
	}
	if rm != nil {
		return rm.run(fset, files, code, rs.sources, out), nil
	}
	return readResults(fset, files, code, rs.sources, out), nil
}

// readResults reads sources, adding each to fset, and makes outcomes of
// their cases for the test specifications of files (code are the
// implementations made from code tags, which witnesses may name); out
// holds what
// finding the sources gave.
func readResults(fset *source.FileSet, files []*parser.File, code []parser.Node, sources []results.Source, out resultsRead) resultsRead {
	for i := range sources {
		sf := fset.Add(sources[i].Path, 0, source.Newlines)
		// A file outside the root shows no snippet, as a tree file would
		// not; nor does a large one, which is streamed, never held.
		if !strings.HasPrefix(sources[i].Path, "../") {
			open := sources[i].Open
			sf.SetReader(func() ([]byte, error) { return readSmall(open) })
		}
		sources[i].File = sf
	}
	nodes, unmatched, d := results.OutcomesWith(files, code, sources)
	out.nodes, out.outcomes, out.unmatched = nodes, onlyOutcomes(nodes), unmatched
	out.diags = append(out.diags, d...)
	return out
}

// onlyOutcomes is the outcomes of the nodes results.Outcomes made: the
// part before its test specifications.
func onlyOutcomes(nodes []parser.Node) []parser.Node {
	k := len(nodes)
	for k > 0 && nodes[k-1].Kind == parser.Test {
		k--
	}
	return nodes[:k:k]
}

// resultsSources gathers the results files of a run, each path once,
// and the diagnostics of finding them.
type resultsSources struct {
	root    string
	sources []results.Source
	seen    map[string]bool
	diags   diag.List
}

// add adds the files that patterns (relative to the root) match, with
// the settings of base, but none already added.
func (rs *resultsSources) add(patterns []string, base results.Source) error {
	src, d, err := results.Load(rs.root, patterns, base)
	if err != nil {
		return err
	}
	rs.diags = append(rs.diags, d...)
	for _, s := range src {
		if !rs.seen[s.Path] {
			rs.seen[s.Path] = true
			rs.sources = append(rs.sources, s)
		}
	}
	return nil
}

// rootPatterns are the --results patterns (relative to the working
// folder) relative to the root, as results.Load takes them and as the
// diagnostics show them: the same in every checkout. Only an absolute
// pattern outside the root stays absolute.
func (t *Tree) rootPatterns(args []string) ([]string, error) {
	absRoot, err := filepath.Abs(t.Root)
	if err != nil {
		return nil, err
	}
	var patterns []string
	for _, p := range args {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("--results %s: %v", p, err)
		}
		if r, err := filepath.Rel(absRoot, a); err == nil &&
			(!filepath.IsAbs(p) || r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))) {
			a = filepath.ToSlash(r)
		}
		patterns = append(patterns, a)
	}
	return patterns, nil
}

// tableOrigin is how diagnostics name the [[results]] table r and what
// they tell to fix it, and the place of its header in the config file
// (added to fset, as *cfgFile, the first time a table needs it).
func (t *Tree) tableOrigin(r config.ResultsRule, fset *source.FileSet, cfgFile **source.File) results.Origin {
	origin := results.Origin{
		Name:  fmt.Sprintf("the [[results]] table for %q", r.Path),
		Entry: fmt.Sprintf("witnesses entry %%q of the [[results]] table for %q", r.Path),
		Hint: fmt.Sprintf("Add witnesses = [\"ID\", ...] to the [[results]] table for %q in %s, naming the implementations the tests ran against.",
			r.Path, filepath.Base(t.Config.File)),
		Short: fmt.Sprintf("add witnesses = [\"ID\", ...] to the [[results]] table for %q", r.Path),
	}
	if r.Line > 0 && t.Config.File != "" {
		if *cfgFile == nil {
			*cfgFile = fset.Add(configName(t.Root, t.Config.File), len(t.Config.Raw), source.Newlines)
			raw := t.Config.Raw
			(*cfgFile).SetReader(func() ([]byte, error) { return raw, nil })
		}
		origin.Pos = (*cfgFile).Mark(r.Line, 1)
	}
	return origin
}

// flaky is a config's rerun policy as the results package takes it.
func flaky(policy string) string {
	if policy == config.FlakyPassed {
		return results.FlakyPassed
	}
	return results.FlakyFailed
}

// configName is how positions name the config file: relative to the root
// when it is inside it.
func configName(root, file string) string {
	absRoot, err1 := filepath.Abs(root)
	abs, err2 := filepath.Abs(file)
	if err1 == nil && err2 == nil {
		if r, err := filepath.Rel(absRoot, abs); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(file)
}

// readSmall reads a results file again for a snippet, unless it is larger
// than snippetLimit.
func readSmall(open func() (io.ReadCloser, error)) ([]byte, error) {
	rc, err := open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, snippetLimit+1))
	if err != nil {
		return nil, err
	}
	if len(data) > snippetLimit {
		return nil, errors.New("too large to quote")
	}
	return data, nil
}

// ResultsOutcome is the outcome node made from a results file whose ID is
// id, nil when there is none: what a report shows of the case (its name,
// Title, and the first lines of its message, Body).
func (c *Check) ResultsOutcome(id string) *parser.Node {
	if c.outcomeIndex == nil {
		return nil
	}
	i, ok := c.outcomeIndex()[id]
	if !ok {
		return nil
	}
	return &c.Outcomes[i]
}

func indexOutcomes(outcomes []parser.Node) map[string]int {
	m := make(map[string]int, len(outcomes))
	for i := range outcomes {
		if _, dup := m[outcomes[i].ID]; !dup {
			m[outcomes[i].ID] = i
		}
	}
	return m
}

// ReadsResults reports whether a run with o reads test results files.
func (t *Tree) ReadsResults(o Options) bool {
	return len(o.Results) > 0 || len(t.Config.Results) > 0
}

// verifyProperties are the results properties that name requirements, as
// the config gives them: nil (the defaults) when it names none.
func (t *Tree) verifyProperties() []results.VerifyProperty {
	ps := t.Config.VerifyProperties
	if ps == nil {
		return nil
	}
	out := make([]results.VerifyProperty, len(ps))
	for i, p := range ps {
		out[i] = results.VerifyProperty{Name: p.Name, Partial: p.Partial}
	}
	return out
}
