// Package cli is the seg command line: it parses flags, runs the pipeline
// (config, parse, graph, evaluate) and hands the result to a report format.
// main is a one-line call to Execute, which tests call directly.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs"
)

// Version is seg's version; release builds set it with -ldflags.
var Version = "0.1.0-dev"

// now is the clock; tests replace it.
var now = time.Now

// Exit codes. Only the gates exit 1: check on what its policy fails on
// (check.FailOn), diff on a requirement that got worse, review on a link
// to review, matrix below --min-coverage, lsp when the editor went away
// without shutdown and exit (exitCodesHelp says which, per command); the
// other commands exit 0 when they did their job, whatever the verdicts,
// and 2 when they could not.
const (
	exitOK      = 0
	exitFailed  = 1 // a gate's finding: by default an error or an unsatisfied requirement
	exitTrouble = 2 // seg could not do its job
)

const usage = `seg checks requirements traceability in a reStructuredText tree.

usage:
  seg check   [ROOT [FILE...]]  read, build, evaluate; print diagnostics and verdicts
  seg explain ID [ROOT]         why a requirement (or what a node bears on) is or is not satisfied
  seg matrix  [ROOT]            the traceability matrix, for review
  seg graph   [ROOT]            the whole graph: nodes, edges, positions, verdicts
  seg diff    --base REV [ROOT] what a change did to the trace (or: seg diff BASE.json HEAD.json)
  seg import  [ROOT]            write outcomes read from test results as .. outcome:: directives
  seg review  [ROOT]            the links whose target changed since they were pinned; --accept pins them
  seg init    [ROOT]            write a commented seg.toml; print the pre-commit and CI snippets
  seg lsp     [ROOT]            the language server, on standard input and output (docs/editors.md)
  seg version                   print the version
  seg help    [COMMAND]         what a command does, its flags and their values

ROOT defaults to the current folder. 'seg help COMMAND' (or 'seg COMMAND --help')
describes a command and its flags.
Exit codes: 1 is a gate's finding: seg check on what --fail-on names (by default an
error or an unsatisfied requirement), seg diff on a requirement that got worse, seg
review on a link to review, seg matrix below --min-coverage ('seg help COMMAND' says
which); otherwise 0 when seg did its job; 2 always means seg could not run (bad flags,
an unreadable root, a bad config).
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
	case "review":
		run = runReview
	case "diff":
		run = runDiff
	case "lsp":
		run = runLsp
	case "init":
		run = func(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
			code, err := runInit(args, stdout, stderr)
			return code, check.Stats{}, err
		}
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "seg %s\n", versionString())
		return exitOK, check.Stats{}
	case "help", "-h", "--help", "-help":
		return help(args[1:], stdout, stderr), check.Stats{}
	default:
		fmt.Fprintf(stderr, "seg: unknown command %q%s\n\n%s", cmd, diag.DidYouMean(cmd, commandNames()), usage)
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

// commandNames lists every command, for "did you mean".
func commandNames() []string {
	return slices.Sorted(slices.Values(append(slices.Collect(maps.Keys(commands)), "help", "init", "version")))
}

// help is seg help [COMMAND]: the general usage, or one command's help,
// on stdout.
func help(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, usage)
		return exitOK
	case len(args) > 1:
		fmt.Fprintf(stderr, "seg help: want one command, got %q\n", args)
		return exitTrouble
	}
	switch cmd := args[0]; cmd {
	case "init":
		fmt.Fprint(stdout, initUsage)
	case "version":
		fmt.Fprint(stdout, "usage: seg version\n\nPrints seg's version (and the commit it was built from, when known).\n")
	case "help":
		fmt.Fprint(stdout, "usage: seg help [COMMAND]\n\nDescribes seg, or one command and its flags.\n")
	default:
		if _, ok := commands[cmd]; !ok {
			fmt.Fprintf(stderr, "seg help: unknown command %q%s (commands: %s)\n", cmd, diag.DidYouMean(cmd, commandNames()), strings.Join(commandNames(), ", "))
			return exitTrouble
		}
		_, fs := newFlags(cmd)
		writeHelp(stdout, cmd, fs)
	}
	return exitOK
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
		FailOn:     o.failOn,
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
	// A filter that selects nothing (a typo in a type or a status) would
	// show an empty, passing report: refused, as a path that matches
	// nothing is.
	if len(fc.Requirements()) == 0 && len(c.Requirements()) > 0 && !o.allowEmpty {
		return nil, usagef("seg: --filter %q selects none of the tree's %d requirements (--allow-empty accepts that)", o.filter, len(c.Requirements()))
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
	p := t.Config.Needs
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
