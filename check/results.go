package check

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/results"
	"github.com/seg-trace/seg/source"
)

// resultsRead is what the results files of a run gave.
type resultsRead struct {
	outcomes  []parser.Node
	unmatched []results.Case
	diags     diag.List
}

// loadResults turns the results files named on the command line (paths
// relative to the working folder) and by the config's [[results]] tables
// (paths relative to the root) into outcome nodes.
func (t *Tree) loadResults(o Options, fset *source.FileSet, files []*parser.File) (resultsRead, error) {
	var out resultsRead
	var sources []results.Source
	seen := map[string]bool{}
	add := func(patterns, witnesses []string, name string) error {
		src, d, err := results.Load(t.Root, patterns, witnesses, name)
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
		if err := add(patterns, o.Witnesses, o.ResultsConfig); err != nil {
			return out, err
		}
	}
	for _, r := range t.Config.Results {
		if err := add([]string{r.Path}, r.Witnesses, r.Config); err != nil {
			return out, err
		}
	}
	if len(sources) == 0 {
		return out, nil
	}
	for i := range sources {
		sf := fset.Add(sources[i].Path, len(sources[i].Data), source.Newlines)
		// A file outside the root shows no snippet, as a tree file would
		// not.
		if data := sources[i].Data; !strings.HasPrefix(sources[i].Path, "../") {
			sf.SetReader(func() ([]byte, error) { return data, nil })
		}
		sources[i].File = sf
	}
	outcomes, unmatched, d := results.Outcomes(files, sources)
	out.outcomes, out.unmatched = outcomes, unmatched
	out.diags = append(out.diags, d...)
	return out, nil
}

// ReadsResults reports whether a run with o reads test results files.
func (t *Tree) ReadsResults(o Options) bool {
	return len(o.Results) > 0 || len(t.Config.Results) > 0
}
