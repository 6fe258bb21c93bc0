package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/report"
	"github.com/seg-trace/seg/results"
)

// loadResults turns the results files named on the command line (paths
// relative to the working folder) and by the config's [[results]] tables
// (paths relative to the root) into outcome nodes.
func loadResults(root string, cfg *config.Config, o *options, files []*parser.File) ([]parser.Node, []report.UnmatchedCase, parser.Diagnostics, error) {
	var sources []results.Source
	var diags parser.Diagnostics
	seen := map[string]bool{}
	add := func(patterns, witnesses []string, name string) error {
		src, d, err := results.Load(root, patterns, witnesses, name)
		if err != nil {
			return fmt.Errorf("seg: %v", err)
		}
		diags = append(diags, d...)
		for _, s := range src {
			// The command line comes first and wins over the config.
			if !seen[s.Path] {
				seen[s.Path] = true
				sources = append(sources, s)
			}
		}
		return nil
	}
	if len(o.results) > 0 {
		absRoot, err := filepath.Abs(root)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("seg: %v", err)
		}
		var patterns []string
		for _, p := range o.results {
			a, err := filepath.Abs(p)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("seg: --results %s: %v", p, err)
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
		if err := add(patterns, splitList(o.witness), o.resultsConfig); err != nil {
			return nil, nil, nil, err
		}
	} else if o.witness != "" || o.resultsConfig != "" {
		return nil, nil, nil, usagef("seg: --witness and --results-config go with --results")
	}
	for _, r := range cfg.Results {
		if err := add([]string{r.Path}, r.Witnesses, r.Config); err != nil {
			return nil, nil, nil, err
		}
	}
	if len(sources) == 0 {
		return nil, nil, diags, nil
	}
	outcomes, unmatched, d := results.Outcomes(files, sources)
	diags = append(diags, d...)
	var um []report.UnmatchedCase
	for _, c := range unmatched {
		um = append(um, report.UnmatchedCase{Name: c.Name, Result: c.Result, Pos: c.Pos})
	}
	return outcomes, um, diags, nil
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '|' }) {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}
