// Package cli is the seg command line: it parses flags, runs the pipeline
// (config, parse, graph, evaluate) and hands the result to a report format.
// main is a one-line call to Execute, which tests call directly.
package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/check"
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
	}
	if !o.noCache {
		if base, ok := cache.BaseDir(); ok {
			opts.Cache = cache.Open(base, Version, t.Config.Parser)
		}
	}
	return t, opts, nil
}

// load reads, builds and evaluates the tree under root.
func load(root string, o *options) (*check.Check, check.Stats, error) {
	t, opts, err := open(root, o)
	if err != nil {
		return nil, check.Stats{}, err
	}
	c, stats, err := t.Run(opts)
	if err != nil {
		return nil, stats, fmt.Errorf("seg: %v", err)
	}
	return c, stats, nil
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

// output opens --output (or stdout) and decides color for the writer
// actually used. done finishes the report; discard, safe to defer, drops
// an unfinished one.
func output(o *options, stdout io.Writer) (w io.Writer, colored bool, done func() error, discard func(), err error) {
	w, done, discard = stdout, func() error { return nil }, func() {}
	if o.output != "" && o.output != "-" {
		f, err := openOutput(o.output)
		if err != nil {
			return nil, false, nil, nil, err
		}
		w, done, discard = f.bw, f.finish, f.discard
	}
	switch o.color {
	case "always":
		colored = true
	case "never":
		colored = false
	default:
		colored = os.Getenv("NO_COLOR") == "" && isTerminal(w)
	}
	return w, colored, done, discard, nil
}

// outFile is --output being written. A regular file (or a new one) is
// written under a temporary name beside it and renamed into place when
// the report is whole, so a failing run never leaves half a report and a
// large report is never held in memory; anything else (a device such as
// /dev/null, a FIFO, a link) is written in place.
type outFile struct {
	name, tmp string
	f         *os.File
	bw        *bufio.Writer
}

func openOutput(name string) (*outFile, error) {
	o := &outFile{name: name}
	var err error
	if st, lerr := os.Lstat(name); lerr == nil && !st.Mode().IsRegular() {
		o.f, err = os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
	} else {
		o.tmp = filepath.Join(filepath.Dir(name), fmt.Sprintf(".%s.%d.seg-tmp", filepath.Base(name), os.Getpid()))
		o.f, err = os.OpenFile(o.tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_EXCL, 0o644)
	}
	if err != nil {
		return nil, fmt.Errorf("seg: cannot write %s: %v", name, errors.Unwrap(err))
	}
	o.bw = bufio.NewWriterSize(o.f, 1<<16)
	return o, nil
}

func (o *outFile) finish() error {
	err := o.bw.Flush()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	o.f = nil
	if err == nil && o.tmp != "" {
		err = os.Rename(o.tmp, o.name)
	}
	if err != nil {
		if o.tmp != "" {
			os.Remove(o.tmp)
		}
		return fmt.Errorf("seg: cannot write %s: %v", o.name, errors.Unwrap(err))
	}
	return nil
}

func (o *outFile) discard() {
	if o.f != nil {
		o.f.Close()
		o.f = nil
		if o.tmp != "" {
			os.Remove(o.tmp)
		}
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
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
