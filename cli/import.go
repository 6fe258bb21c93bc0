package cli

import (
	"fmt"
	"io"

	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/report"
	"github.com/seg-trace/seg/results"
)

// runImport writes the outcomes read from test results as .. outcome::
// directives: a permanent record of a run, kept in the tree. It is the only
// command that writes, and it writes only the file --output names (standard
// output without it). A results file that cannot be read completely is
// refused, so the record never holds half a run.
func runImport(args []string, stdout, stderr io.Writer) (int, error) {
	o, err := parseFlags("import", args, "rst", stderr)
	if err != nil {
		return 0, err
	}
	if o.format != "rst" {
		return 0, usagef("seg import: unknown --format %q (want rst)", o.format)
	}
	if len(o.results) == 0 {
		return 0, usagef("seg import: --results FILE is required")
	}
	if len(o.args) > 1 {
		return 0, usagef("seg import: too many arguments (usage: seg import --results FILE --witness ID --output FILE [ROOT])")
	}
	root, _ := rootArg(o.args)
	r, err := pipeline(root, o)
	if err != nil {
		return 0, err
	}
	c := r.check
	var bad parser.Diagnostics
	for _, d := range c.Diagnostics {
		if d.Code == "invalid-results" {
			bad = append(bad, d)
		}
	}
	if len(bad) > 0 {
		_, colored, _, _, _ := output(&options{color: o.color}, stderr)
		report.WriteText(stderr, &report.Check{At: c.At, Graph: c.Graph, Result: c.Result, Diagnostics: bad, Source: c.Source,
			Only: func(report.Requirement) bool { return false }}, colored)
		return exitFailed, nil
	}
	outcomes := r.outcomes
	if len(outcomes) == 0 {
		fmt.Fprintln(stderr, "seg import: no test case of the results matches a test specification's :cases:; nothing written")
		return exitFailed, nil
	}
	return emit(o, stdout, func(w io.Writer, _ bool) error {
		return results.Import(w, outcomes, results.ImportOptions{IDPattern: r.cfg.Parser.IDPattern})
	}, exitOK)
}
