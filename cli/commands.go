package cli

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/report"
)

var checkFormats = map[string]func(io.Writer, *report.Check, bool) error{
	"text": report.WriteText,
	"json": func(w io.Writer, c *report.Check, _ bool) error { return report.WriteJSON(w, c) },
}

func formatNames[T any](m map[string]T) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

func runCheck(args []string, stdout, stderr io.Writer) (int, error) {
	o, err := parseFlags("check", args, "text", stderr)
	if err != nil {
		return 0, err
	}
	write, ok := checkFormats[o.format]
	if !ok {
		return 0, usagef("seg check: unknown --format %q (want one of: %s)", o.format, formatNames(checkFormats))
	}
	root, files := rootArg(o.args)
	c, _, err := pipeline(root, o)
	if err != nil {
		return 0, err
	}
	only := append(append([]string(nil), o.only...), files...)
	if len(only) > 0 {
		c = narrow(c, root, only)
	}
	return emit(o, stdout, func(w io.Writer, colored bool) error { return write(w, c, colored) }, exitFor(c))
}

// emit writes one report through --output and color handling.
func emit(o *options, stdout io.Writer, write func(io.Writer, bool) error, code int) (int, error) {
	w, colored, done, err := output(o, stdout)
	if err != nil {
		return 0, err
	}
	if err := write(w, colored); err != nil {
		return 0, fmt.Errorf("seg: %v", err)
	}
	if err := done(); err != nil {
		return 0, err
	}
	return code, nil
}

// narrow keeps the diagnostics in the named files, and the requirements
// defined in them or whose blocking reasons point into them. Verdicts are
// still those of the whole tree (SEG-SREQ-008); only what is shown, and so
// what can fail the check, is narrowed (docs/precommit.md).
func narrow(c *report.Check, root string, names []string) *report.Check {
	want := map[string]bool{}
	for _, n := range names {
		want[relToRoot(root, n)] = true
	}
	out := *c
	out.Diagnostics = nil
	for _, d := range c.Diagnostics {
		if want[d.Span.Start.File] {
			out.Diagnostics = append(out.Diagnostics, d)
		}
	}
	out.Only = func(r report.Requirement) bool {
		if want[r.Node.Pos().File] {
			return true
		}
		for _, reason := range r.Verdict.Blocking() {
			if want[reason.Pos.File] {
				return true
			}
		}
		return false
	}
	return &out
}

// relToRoot turns a path given on the command line (relative to the
// working folder, as pre-commit passes them) into a root-relative slash
// path.
func relToRoot(root, name string) string {
	absRoot, err1 := filepath.Abs(root)
	absName, err2 := filepath.Abs(name)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absRoot, absName); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(filepath.Clean(name))
}

func runExplain(args []string, stdout, stderr io.Writer) (int, error) {
	o, err := parseFlags("explain", args, "text", stderr)
	if err != nil {
		return 0, err
	}
	if len(o.args) == 0 {
		return 0, usagef("seg explain: missing ID (usage: seg explain ID [ROOT])")
	}
	if len(o.args) > 2 {
		return 0, usagef("seg explain: too many arguments (usage: seg explain ID [ROOT])")
	}
	id := o.args[0]
	root, _ := rootArg(o.args[1:])
	if o.format != "text" && o.format != "json" {
		return 0, usagef("seg explain: unknown --format %q (want one of: json, text)", o.format)
	}
	c, _, err := pipeline(root, o)
	if err != nil {
		return 0, err
	}
	targets, err := c.ExplainTargets(id)
	if err != nil {
		return 0, fmt.Errorf("seg explain: %v", err)
	}
	code := exitOK
	for _, n := range targets {
		if v, _ := c.Result.Verdict(n); !v.Satisfied {
			code = exitFailed
		}
	}
	return emit(o, stdout, func(w io.Writer, colored bool) error {
		if o.format == "json" {
			return report.WriteExplainJSON(w, c, id)
		}
		return report.WriteExplain(w, c, id, colored)
	}, code)
}

var graphFormats = map[string]func(io.Writer, *report.Check) error{
	"json":    report.WriteGraphJSON,
	"dot":     report.WriteDOT,
	"mermaid": report.WriteMermaid,
}

func runGraph(args []string, stdout, stderr io.Writer) (int, error) {
	o, err := parseFlags("graph", args, "json", stderr)
	if err != nil {
		return 0, err
	}
	write, ok := graphFormats[o.format]
	if !ok {
		return 0, usagef("seg graph: unknown --format %q (want one of: %s)", o.format, formatNames(graphFormats))
	}
	if len(o.args) > 1 {
		return 0, usagef("seg graph: too many arguments (usage: seg graph [ROOT])")
	}
	root, _ := rootArg(o.args)
	c, _, err := pipeline(root, o)
	if err != nil {
		return 0, err
	}
	return emit(o, stdout, func(w io.Writer, _ bool) error { return write(w, c) }, exitFor(c))
}
