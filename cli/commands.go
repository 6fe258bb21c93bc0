package cli

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/report"
)

var checkFormats = map[string]func(io.Writer, *check.Check, bool) error{
	"text":   report.WriteText,
	"json":   func(w io.Writer, c *check.Check, _ bool) error { return report.WriteJSON(w, c) },
	"github": report.WriteGitHub,
	"sarif":  func(w io.Writer, c *check.Check, _ bool) error { return report.WriteSARIF(w, c, Version) },
}

func formatNames[T any](m map[string]T) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

func runCheck(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
	o, err := parseFlags("check", args, "text", stderr)
	if err != nil {
		return 0, check.Stats{}, err
	}
	write, ok := checkFormats[o.format]
	if !ok {
		return 0, check.Stats{}, usagef("seg check: unknown --format %q (want one of: %s)", o.format, formatNames(checkFormats))
	}
	root, files := checkArgs(o.args)
	t, opts, err := open(root, o)
	if err != nil {
		return 0, check.Stats{}, err
	}
	w, colored, done, discard, err := output(o, stdout)
	if err != nil {
		return 0, check.Stats{}, err
	}
	defer discard()
	only := append(append([]string(nil), o.only...), files...)
	render := func(c *check.Check, w io.Writer) (int, error) {
		if len(only) > 0 && o.blame != "all" {
			c = c.Narrow(blamed(root, only))
		}
		return exitFor(c), write(w, c, colored)
	}
	// A tree unchanged since a run with the same flags gets that run's
	// report (docs/performance.md, "The result cache"). The key holds what
	// the report depends on; not --output, which only says where it goes.
	parts := []string{"check", o.format, fmt.Sprint(colored), o.blame,
		strings.Join(o.only, "\x00"), strings.Join(o.args, "\x00")}
	code, stats, err := t.RunReport(opts, parts, w, render)
	if err != nil {
		return 0, stats, fmt.Errorf("seg: %v", err)
	}
	return code, stats, done()
}

// checkArgs splits check's positional arguments into the root and the
// files to narrow to. When the first argument is a file rather than a
// folder (an .rst file), there is no root argument: the root is the working folder and
// every argument is a file. That is how pre-commit calls a hook whose entry
// is plain `seg check`.
func checkArgs(args []string) (string, []string) {
	if len(args) > 0 {
		if info, err := os.Stat(args[0]); err == nil && !info.IsDir() && strings.HasSuffix(args[0], ".rst") {
			return ".", args
		}
	}
	return rootArg(args)
}

// emit writes one report through --output and color handling.
func emit(o *options, stdout io.Writer, write func(io.Writer, bool) error, code int) (int, error) {
	w, colored, done, discard, err := output(o, stdout)
	if err != nil {
		return 0, err
	}
	defer discard()
	if err := write(w, colored); err != nil {
		return 0, fmt.Errorf("seg: %v", err)
	}
	if err := done(); err != nil {
		return 0, err
	}
	return code, nil
}

// blamed is the set of root-relative paths a narrowed check is about
// (docs/precommit.md): seg check FILE... and --only.
func blamed(root string, names []string) map[string]bool {
	want := map[string]bool{}
	for _, n := range names {
		want[relToRoot(root, n)] = true
	}
	return want
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

func runExplain(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
	o, err := parseFlags("explain", args, "text", stderr)
	if err != nil {
		return 0, check.Stats{}, err
	}
	if len(o.args) == 0 {
		return 0, check.Stats{}, usagef("seg explain: missing ID (usage: seg explain ID [ROOT])")
	}
	if len(o.args) > 2 {
		return 0, check.Stats{}, usagef("seg explain: too many arguments (usage: seg explain ID [ROOT])")
	}
	id := o.args[0]
	root, _ := rootArg(o.args[1:])
	if o.format != "text" && o.format != "json" {
		return 0, check.Stats{}, usagef("seg explain: unknown --format %q (want one of: json, text)", o.format)
	}
	c, stats, err := load(root, o)
	if err != nil {
		return 0, stats, err
	}
	targets, err := report.ExplainTargets(c, id)
	if err != nil {
		return 0, stats, fmt.Errorf("seg explain: %v", err)
	}
	code := exitOK
	for _, n := range targets {
		if v, _ := c.Result.Verdict(n); !v.Satisfied {
			code = exitFailed
		}
	}
	code, err = emit(o, stdout, func(w io.Writer, colored bool) error {
		if o.format == "json" {
			return report.WriteExplainJSON(w, c, id)
		}
		return report.WriteExplain(w, c, id, colored)
	}, code)
	return code, stats, err
}

var graphFormats = map[string]func(io.Writer, *check.Check) error{
	"json":    report.WriteGraphJSON,
	"dot":     report.WriteDOT,
	"mermaid": report.WriteMermaid,
	// needs.json in sphinx-needs' schema (docs/sphinx-needs.md)
	"needs-json": report.WriteNeedsJSON,
}

func runGraph(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
	o, err := parseFlags("graph", args, "json", stderr)
	if err != nil {
		return 0, check.Stats{}, err
	}
	write, ok := graphFormats[o.format]
	if !ok {
		return 0, check.Stats{}, usagef("seg graph: unknown --format %q (want one of: %s)", o.format, formatNames(graphFormats))
	}
	if len(o.args) > 1 {
		return 0, check.Stats{}, usagef("seg graph: too many arguments (usage: seg graph [ROOT])")
	}
	root, _ := rootArg(o.args)
	c, stats, err := load(root, o)
	if err != nil {
		return 0, stats, err
	}
	code, err := emit(o, stdout, func(w io.Writer, _ bool) error { return write(w, c) }, exitFor(c))
	return code, stats, err
}
