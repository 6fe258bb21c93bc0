// Package cli is the seg command line: it parses flags, runs the pipeline
// (config, parse, graph, evaluate) and hands the result to a report format.
// main is a one-line call to Execute, which tests call directly.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/needs"
)

// Version is seg's version; release builds set it with -ldflags.
var Version = "0.1.0-dev"

// now is the clock; tests replace it.
var now = time.Now

// Exit codes.
const (
	exitOK      = 0
	exitFailed  = 1 // an error diagnostic or an unsatisfied requirement
	exitTrouble = 2 // seg could not do its job
)

const usage = `seg checks requirements traceability in a reStructuredText tree.

usage:
  seg check   [ROOT [FILE...]]  read, build, evaluate; print diagnostics and verdicts
  seg explain ID [ROOT]         why a requirement (or what a node bears on) is or is not satisfied
  seg matrix  [ROOT]            the traceability matrix, for review
  seg graph   [ROOT]            the whole graph: nodes, edges, positions, verdicts
  seg import  [ROOT]            write outcomes read from test results as .. outcome:: directives
  seg init    [ROOT]            write a commented seg.toml; print the pre-commit and CI snippets
  seg version                   print the version

ROOT defaults to the current folder. Run 'seg COMMAND -h' for a command's flags.
Exit codes: 0 all satisfied and no error, 1 an error or an unsatisfied requirement, 2 seg could not run.
`

// Execute runs seg with the arguments after the program name and returns
// the exit code.
func Execute(args []string, stdout, stderr io.Writer) int {
	code, _ := execute(args, stdout, stderr)
	return code
}

// execute is Execute, with what the parse cache did (for tests).
func execute(args []string, stdout, stderr io.Writer) (int, check.Stats) {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitTrouble, check.Stats{}
	}
	var run func([]string, io.Writer, io.Writer) (int, check.Stats, error)
	switch cmd := args[0]; cmd {
	case "check":
		run = runCheck
	case "explain":
		run = runExplain
	case "graph":
		run = runGraph
	case "matrix":
		run = runMatrix
	case "import":
		run = runImport
	case "init":
		run = func(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
			code, err := runInit(args, stdout, stderr)
			return code, check.Stats{}, err
		}
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "seg %s\n", versionString())
		return exitOK, check.Stats{}
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return exitOK, check.Stats{}
	default:
		fmt.Fprintf(stderr, "seg: unknown command %q\n\n%s", cmd, usage)
		return exitTrouble, check.Stats{}
	}
	code, stats, err := run(args[1:], stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK, stats
	}
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return exitTrouble, stats
	}
	return code, stats
}

func versionString() string {
	v := Version
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
	}
	return v
}

// open reads the root's configuration and turns the flags into a run's
// options.
func open(root string, o *options) (*check.Tree, check.Options, error) {
	t, err := check.Open(root, o.config)
	if err != nil {
		return nil, check.Options{}, fmt.Errorf("seg: %w", err)
	}
	if len(o.results) == 0 && (o.witness != "" || o.resultsConfig != "") {
		return nil, check.Options{}, usagef("seg: --witness and --results-config go with --results")
	}
	opts := check.Options{
		At: o.evaluationDate(now), Results: o.results, Witnesses: splitList(o.witness), ResultsConfig: o.resultsConfig,
		AllowEmpty: o.allowEmpty,
	}
	if err := needsFiles(t, o.needsFiles); err != nil {
		return nil, check.Options{}, err
	}
	if o.filter != "" {
		if _, ferr := needs.ParseFilter(o.filter); ferr != nil {
			return nil, check.Options{}, usagef("seg: --filter %s", filterMessage(o.filter, ferr))
		}
	}
	if !o.noCache {
		if base, ok := cache.BaseDir(); ok {
			opts.Cache = cache.Open(base, Version, t.Config.Parser)
		}
	}
	return t, opts, nil
}

// load reads, builds and evaluates the tree under root, and narrows it
// to what --filter selects.
func load(root string, o *options, stderr io.Writer) (*check.Check, check.Stats, error) {
	t, opts, err := open(root, o)
	if err != nil {
		return nil, check.Stats{}, err
	}
	c, stats, err := t.Run(opts)
	if err != nil {
		return nil, stats, fmt.Errorf("seg: %v", err)
	}
	c, err = filtered(c, o, stderr)
	return c, stats, err
}

// filtered is the check as --filter selects it; a note on nodes the
// filter could not be evaluated on goes to stderr.
func filtered(c *check.Check, o *options, stderr io.Writer) (*check.Check, error) {
	if o.filter == "" {
		return c, nil
	}
	f, ferr := needs.ParseFilter(o.filter)
	if ferr != nil {
		return nil, usagef("seg: --filter %s", filterMessage(o.filter, ferr))
	}
	fc, note, err := c.Filter(f)
	if err != nil {
		return nil, usagef("seg: %v", err)
	}
	if note != "" {
		fmt.Fprintf(stderr, "seg: warning: %s\n", note)
	}
	return fc, nil
}

// filterMessage shows a filter that cannot be read with a caret under the
// place, as the text report shows a source line.
func filterMessage(src string, e *needs.FilterError) string {
	kind := "is not valid"
	if e.Unsupported {
		kind = "is outside what seg evaluates"
	}
	if strings.Contains(src, "\n") || e.Offset > len(src) {
		return fmt.Sprintf("%q %s: %s", src, kind, e.Msg)
	}
	return fmt.Sprintf("%s: %s\n    %s\n    %s^", kind, e.Msg, src, strings.Repeat(" ", utf8.RuneCountInString(src[:e.Offset])))
}

// needsFiles gives the project the local copies of the needs.json files
// it names by URL (--needs-file URL=FILE, paths relative to the working
// folder).
func needsFiles(t *check.Tree, pairs []string) error {
	if len(pairs) == 0 {
		return nil
	}
	p := t.Config.Parser.Needs
	if p == nil {
		return usagef("seg: --needs-file: the tree is no sphinx-needs project")
	}
	if p.Fetched == nil {
		p.Fetched = map[string]string{}
	}
	for _, pair := range pairs {
		// A URL may hold "=" (a query); a file name seldom does.
		i := strings.LastIndex(pair, "=")
		if i <= 0 || i == len(pair)-1 {
			return usagef("seg: --needs-file wants URL=FILE, not %q", pair)
		}
		u, file := pair[:i], pair[i+1:]
		if u == "" || file == "" {
			return usagef("seg: --needs-file wants URL=FILE, not %q", pair)
		}
		abs, err := filepath.Abs(file)
		if err != nil {
			return usagef("seg: --needs-file %s: %v", pair, err)
		}
		p.Fetched[u] = abs
	}
	return nil
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

// rootArg splits positional arguments into the root and the rest.
func rootArg(args []string) (string, []string) {
	if len(args) == 0 {
		return ".", nil
	}
	return args[0], args[1:]
}

func exitFor(c *check.Check) int {
	if c.Failed() {
		return exitFailed
	}
	return exitOK
}
