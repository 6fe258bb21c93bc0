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
// (paths relative to the root) into outcome nodes.
func (t *Tree) loadResults(o Options, fset *source.FileSet, files []*parser.File) (resultsRead, error) {
	var out resultsRead
	var sources []results.Source
	seen := map[string]bool{}
	add := func(patterns []string, base results.Source) error {
		src, d, err := results.Load(t.Root, patterns, base)
		if err != nil {
			return err
		}
		out.diags = append(out.diags, d...)
		for _, s := range src {
			// The command line comes first and wins over the config.
			if !seen[s.Path] {
				seen[s.Path] = true
				sources = append(sources, s)
			}
		}
		return nil
	}
	if len(o.Results) > 0 {
		absRoot, err := filepath.Abs(t.Root)
		if err != nil {
			return out, err
		}
		var patterns []string
		for _, p := range o.Results {
			a, err := filepath.Abs(p)
			if err != nil {
				return out, fmt.Errorf("--results %s: %v", p, err)
			}
			// Relative to the root, as results.Load takes them and as the
			// diagnostics show them: the same in every checkout. Only an
			// absolute pattern outside the root stays absolute.
			if r, err := filepath.Rel(absRoot, a); err == nil &&
				(!filepath.IsAbs(p) || r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))) {
				a = filepath.ToSlash(r)
			}
			patterns = append(patterns, a)
		}
		base := results.Source{Witnesses: o.Witnesses, Config: o.ResultsConfig,
			Flaky: flaky(t.Config.ResultsFlaky), Origin: results.CommandLine}
		if err := add(patterns, base); err != nil {
			return out, err
		}
	}
	var cfgFile *source.File
	for _, r := range t.Config.Results {
		origin := results.Origin{
			Name:  fmt.Sprintf("the [[results]] table for %q", r.Path),
			Entry: fmt.Sprintf("witnesses entry %%q of the [[results]] table for %q", r.Path),
			Hint: fmt.Sprintf("Add witnesses = [\"ID\", ...] to the [[results]] table for %q in %s, naming the implementations the tests ran against.",
				r.Path, filepath.Base(t.Config.File)),
			Short: fmt.Sprintf("add witnesses = [\"ID\", ...] to the [[results]] table for %q", r.Path),
		}
		if r.Line > 0 && t.Config.File != "" {
			if cfgFile == nil {
				cfgFile = fset.Add(configName(t.Root, t.Config.File), len(t.Config.Raw), source.Newlines)
				raw := t.Config.Raw
				cfgFile.SetReader(func() ([]byte, error) { return raw, nil })
			}
			origin.Pos = cfgFile.Mark(r.Line, 1)
		}
		base := results.Source{Witnesses: r.Witnesses, Config: r.Config, Flaky: flaky(r.Flaky), Origin: origin}
		if err := add([]string{r.Path}, base); err != nil {
			return out, err
		}
	}
	if len(sources) == 0 {
		return out, nil
	}
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
	outcomes, unmatched, d := results.Outcomes(files, sources)
	out.outcomes, out.unmatched = outcomes, unmatched
	out.diags = append(out.diags, d...)
	return out, nil
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
