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
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/report"
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
  seg version                   print the version

ROOT defaults to the current folder. Run 'seg COMMAND -h' for a command's flags.
Exit codes: 0 all satisfied and no error, 1 an error or an unsatisfied requirement, 2 seg could not run.
`

// Execute runs seg with the arguments after the program name and returns
// the exit code.
func Execute(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitTrouble
	}
	cmd, rest := args[0], args[1:]
	var err error
	code := exitOK
	switch cmd {
	case "check":
		code, err = runCheck(rest, stdout, stderr)
	case "explain":
		code, err = runExplain(rest, stdout, stderr)
	case "graph":
		code, err = runGraph(rest, stdout, stderr)
	case "matrix":
		code, err = runMatrix(rest, stdout, stderr)
	case "import":
		code, err = runImport(rest, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "seg %s\n", versionString())
		return exitOK
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "seg: unknown command %q\n\n%s", cmd, usage)
		return exitTrouble
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return exitTrouble
	}
	return code
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

// session is what one pass of the pipeline made.
type session struct {
	check *report.Check
	cfg   *config.Config
	// outcomes are the outcome nodes made from test results files.
	outcomes []parser.Node
}

// pipeline reads, builds and evaluates the tree under root.
func pipeline(root string, o *options) (*session, error) {
	in, err := openInput(root, o)
	if err != nil {
		return nil, err
	}
	return in.run()
}

// input is a root and its configuration, before the tree is parsed.
type input struct {
	root string
	o    *options
	cfg  *config.Config
}

func openInput(root string, o *options) (*input, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("seg: cannot read root %q: %v", root, errors.Unwrap(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("seg: root %q is not a folder", root)
	}
	cfg, err := config.Load(root, o.config)
	if err != nil {
		return nil, fmt.Errorf("seg: bad config: %w", err)
	}
	return &input{root: root, o: o, cfg: cfg}, nil
}

// run parses, builds and evaluates.
func (in *input) run() (*session, error) {
	return in.runParsed(parseTree(in.root, in.cfg, in.o))
}

func (in *input) runParsed(files []*parser.File, err error) (*session, error) {
	root, cfg, o := in.root, in.cfg, in.o
	if err != nil {
		return nil, fmt.Errorf("seg: %v", err)
	}
	var diags parser.Diagnostics
	for _, f := range files {
		diags = append(diags, f.Diagnostics...)
	}
	extra, unmatched, rdiags, err := loadResults(root, cfg, o, files)
	if err != nil {
		return nil, err
	}
	diags = append(diags, rdiags...)
	g, gdiags := graph.BuildConfig(files, extra, cfg.Parser)
	diags = append(diags, gdiags...)
	at := o.evaluationDate(now)
	res := evaluate.Evaluate(g, at)
	diags = append(diags, res.Diagnostics...)
	diags.Sort()
	c := &report.Check{
		At:          at,
		Graph:       g,
		Result:      res,
		Diagnostics: diags,
		Source:      sourceReader(root),
		Unmatched:   unmatched,
	}
	return &session{check: c, cfg: cfg, outcomes: extra}, nil
}

func sourceReader(root string) func(string) []byte {
	return func(p string) []byte {
		if p == "" || strings.Contains(p, "..") {
			return nil
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil
		}
		return data
	}
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

func exitFor(c *report.Check) int {
	if c.Failed() {
		return exitFailed
	}
	return exitOK
}
