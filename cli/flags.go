package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/evaluate"
)

// options are the flags every command shares.
type options struct {
	format        string
	output        string
	color         string
	at            string
	config        string
	results       stringList
	witness       string
	resultsConfig string
	noCache       bool
	only          stringList
	blame         string
	minCoverage   string               // --min-coverage as given
	thresholds    []evaluate.Threshold // --min-coverage, read
	linkTemplate  string
	failOn        check.FailOn
	quiet         bool
	depth         int // explain --depth; -1 when not given
	accept        stringList
	acceptAll     bool
	prune         bool
	dryRun        bool
	diff          bool
	columns       string
	title         string
	base, head    string // seg diff: revisions
	baseGraph     string // seg diff: seg-graph/1 documents joined to the files
	baseConfig    string // seg diff: head or base: the configuration the base is read with
	headGraph     string
	filter        string
	allowEmpty    bool
	evidence      bool // check --evidence: evidence[] in the JSON report
	needsFiles    stringList
	listFiles     bool // check --list-files

	args []string // positional arguments, in order
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// usageError is a problem with the command line: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// command is what the help of a command says.
type command struct {
	args      string // the positional arguments
	about     string // what it does, in a sentence or two
	defFormat string
	formats   func() []string // the --format values, the default first
}

var commands = map[string]command{
	"check": {"[ROOT [FILE...]]",
		"Reads, builds and evaluates the whole tree under ROOT; prints the diagnostics and every\n" +
			"requirement's status. Given FILEs (or --only), shows and fails on only what they bear on.\n" +
			"It is the gate: exit 1 when what --fail-on names is present.",
		"text", func() []string { return formatNames(checkFormats) }},
	"explain": {"ID [ROOT]",
		"Shows why a requirement is or is not satisfied, down to the evidence: the tree of the\n" +
			"requirements refining it, their tests, outcomes, waivers and implementations. Given a\n" +
			"test, an implementation, an outcome or a waiver, explains every requirement it bears on.",
		"text", func() []string { return []string{"text", "json"} }},
	"matrix": {"[ROOT]",
		"Writes the traceability matrix, for review (docs/matrix.md).",
		"markdown", func() []string { return formatNames(matrixFormats) }},
	"graph": {"[ROOT]",
		"Writes the whole graph: nodes, edges, positions, verdicts (docs/graph.md).",
		"json", func() []string { return formatNames(graphFormats) }},
	"import": {"[ROOT]",
		"Writes the outcomes read from --results files as .. outcome:: directives, to --output\n" +
			"(standard output without it): a permanent record of a test run.",
		"rst", func() []string { return []string{"rst"} }},
	"diff": {"(--base REV [--head REV] [ROOT] | BASE.json HEAD.json)",
		"Compares two evaluations: the tree at a git revision and the work tree (or a second revision),\n" +
			"or two seg check --format json files. Exit 1 when a requirement got worse (docs/diff.md).",
		"text", func() []string { return formatNames(diffFormats) }},
	"lsp": {"[ROOT]",
		"Runs the language server on standard input and output, for an editor: the diagnostics, verdicts\n" +
			"and navigation of the tree as the writer types (docs/editors.md). The tree is read as seg check\n" +
			"reads it with the same flags; without ROOT, the root is the workspace folder the editor names.",
		"", func() []string { return nil }},
	"review": {"[ROOT]",
		"Lists the links that need a review: pinned in seg.lock to a revision their target no longer\n" +
			"has (stale), pins of links that are gone (orphan), and under strict review links without a\n" +
			"pin. --accept, --accept-all and --prune rewrite seg.lock, and nothing else (docs/revisions.md).",
		"text", func() []string { return []string{"text", "json"} }},
}

// formatNames lists a command's formats, sorted.
func formatNames[T any](m map[string]T) []string {
	return slices.Sorted(maps.Keys(m))
}

// wantFormat refuses a --format the command does not write.
func wantFormat(cmd string, o *options) error {
	if !slices.Contains(commands[cmd].formats(), o.format) {
		return usagef("seg %s: unknown --format %q (want one of: %s)", cmd, o.format, strings.Join(commands[cmd].formats(), ", "))
	}
	return nil
}

// parseFlags reads flags and positional arguments in any order, as users
// type them (`seg check docs --format json`). -h, -help and --help print
// the command's help on stdout and return flag.ErrHelp.
func parseFlags(cmd string, args []string, stdout io.Writer) (*options, error) {
	o, fs := newFlags(cmd)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				writeHelp(stdout, cmd, fs)
				return nil, flag.ErrHelp
			}
			return nil, usagef("seg %s: %s", cmd, flagError(err, fs))
		}
		if fs.NArg() == 0 {
			break
		}
		o.args = append(o.args, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch o.color {
	case "auto", "always", "never":
	default:
		return nil, usagef("seg %s: --color must be auto, always or never, not %q", cmd, o.color)
	}
	// --at "" is a bad date like any other, not today: a script whose
	// date variable came out empty must not be evaluated at another date.
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["at"] {
		if _, err := time.Parse(time.DateOnly, o.at); err != nil {
			return nil, usagef("seg %s: --at must be a date YYYY-MM-DD, not %q", cmd, o.at)
		}
	}
	if given["depth"] && o.depth < 0 {
		return nil, usagef("seg %s: --depth must be 0 or more, not %d (leave it out for the whole tree)", cmd, o.depth)
	}
	return o, nil
}

// newFlags declares the flags of a command.
func newFlags(cmd string) (*options, *flag.FlagSet) {
	o := &options{}
	c := commands[cmd]
	fs := flag.NewFlagSet("seg "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if cmd == "lsp" {
		// Standard output is the protocol's: no report, no color.
		o.color = "never"
	} else {
		fs.StringVar(&o.format, "format", c.defFormat, "output `FORMAT`: "+orList(c.formats()))
		fs.StringVar(&o.output, "output", "", "write the report to `FILE` instead of standard output (whole or not at all)")
		fs.StringVar(&o.color, "color", "auto", "`WHEN` to color: auto (on a terminal, unless NO_COLOR is set), always or never")
	}
	fs.StringVar(&o.at, "at", "", "evaluation date `YYYY-MM-DD` (default: today, UTC)")
	fs.StringVar(&o.config, "config", "", "config `FILE` (default: ROOT/seg.toml when present)")
	fs.Var(&o.results, "results", "test results `FILE` or glob (JUnit XML or go test -json); repeatable")
	fs.StringVar(&o.witness, "witness", "", "implementation `ID[,ID...]` the --results outcomes witness")
	fs.StringVar(&o.resultsConfig, "results-config", "", "configuration `NAME` of the --results outcomes")
	fs.BoolVar(&o.noCache, "no-cache", false, "do not read or write the parse cache")
	if cmd != "diff" {
		fs.BoolVar(&o.allowEmpty, "allow-empty", false, "a tree without any requirement is no error (no-requirements)")
		fs.Var(&o.needsFiles, "needs-file", "`URL=FILE`: the local copy of a needs.json the project names by URL (external needs, needimport); repeatable")
	}
	switch cmd {
	case "check", "matrix", "graph", "explain":
		fs.StringVar(&o.filter, "filter", "", "list only the requirements (graph: the nodes) the sphinx-needs filter `EXPR` selects, e.g. 'status == \"open\" and \"safety\" in tags'; verdicts still come from the whole tree")
	}
	switch cmd {
	case "check":
		fs.Var(&o.only, "only", "show only what `FILE` bears on (repeatable), as FILE arguments do; verdicts still come from the whole tree")
		fs.Func("blame", "with FILEs or --only, `WHICH` findings fail the check: touched (default: those in or depending on the files) or all (any finding anywhere)", func(v string) error {
			if v != "touched" && v != "all" {
				return fmt.Errorf("want touched or all, not %q", v)
			}
			o.blame = v
			return nil
		})
		fs.Func("fail-on", "what fails the check (exit 1): a comma-separated `LIST` of "+strings.Join(slices.DeleteFunc(check.FailOnWords(), func(w string) bool { return w == "none" }), ", ")+
			" (= failing,unproven); errors always count (default errors,unsatisfied, or [check] fail_on in seg.toml); none alone reports and fails on nothing", func(v string) error {
			f, err := check.ParseFailOn(v)
			if err != nil {
				return err
			}
			o.failOn = f
			return nil
		})
		minCoverageFlag(fs, o)
		fs.BoolVar(&o.quiet, "quiet", false, "list only the diagnostics, the unsatisfied requirements and the summary (text format)")
		fs.BoolVar(&o.evidence, "evidence", false, "json format: list what each verdict counted (evidence[]), for seg diff BASE.json HEAD.json to find lost evidence")
		fs.BoolVar(&o.listFiles, "list-files", false, "print the files the check reads and those it leaves out, each with why, and read none (exit 0)")
	case "explain":
		fs.IntVar(&o.depth, "depth", -1, "expand `N` levels of the requirements that refine it (default: the whole tree below, each requirement once; 0: none)")
	case "review":
		fs.Var(&o.accept, "accept", "pin every link of the nodes `ID[,ID...]` to its target's current revision (repeatable)")
		fs.BoolVar(&o.acceptAll, "accept-all", false, "pin every link of the tree (adopting pins)")
		fs.BoolVar(&o.prune, "prune", false, "drop the pins of links the tree does not have")
		fs.BoolVar(&o.dryRun, "dry-run", false, "print the diff of seg.lock instead of writing it")
		fs.BoolVar(&o.diff, "diff", false, "show what changed in each stale link's target, from the git history")
	case "matrix":
		minCoverageFlag(fs, o)
		fs.StringVar(&o.linkTemplate, "link-template", "", "link `TEMPLATE` with {file} and {line}, e.g. https://host/repo/blob/main/{file}#L{line}")
		fs.StringVar(&o.title, "title", "", "the `NAME` of the tree in the HTML page's heading and printed page headers (default: [matrix] title in seg.toml, else the root folder's name)")
		fs.StringVar(&o.columns, "columns", "", "the HTML page's `LIST` of columns, in order (default: [matrix] columns in seg.toml, else all)")
	case "diff":
		fs.StringVar(&o.base, "base", "", "evaluate the tree at git revision `REV` as the base (e.g. origin/main)")
		fs.StringVar(&o.head, "head", "", "evaluate the tree at git revision `REV` as the head (default: the work tree)")
		fs.StringVar(&o.baseGraph, "base-graph", "", "with two files: the base's seg graph --format json `FILE`, to compare links and node text")
		fs.StringVar(&o.headGraph, "head-graph", "", "with two files: the head's seg graph --format json `FILE`")
		fs.StringVar(&o.baseConfig, "base-config", "", "the configuration the base is read with: `WHICH` is base (its own) or head (the head's); default: base when the base has one, else head")
	}
	return o, fs
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// writeHelp prints a command's help: its usage line, what it does and its
// flags, spelt --flag, each with the values it takes and its default.
func writeHelp(w io.Writer, cmd string, fs *flag.FlagSet) {
	c := commands[cmd]
	fmt.Fprintf(w, "usage: seg %s [flags] %s\n\n%s\n\nflags:\n", cmd, c.args, c.about)
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		if arg != "" {
			arg = " " + arg
		}
		def := ""
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "-1" && f.DefValue != "[]" {
			def = fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "  --%s%s\n        %s%s\n", f.Name, arg, usage, def)
	})
	fmt.Fprint(w, "\nExit codes: "+exitCodesHelp(cmd)+"\n")
}

// exitCodesHelp is what a command's exit codes mean.
func exitCodesHelp(cmd string) string {
	switch cmd {
	case "check":
		return "0 nothing --fail-on names is present and every --min-coverage threshold is met, 1 otherwise, 2 seg could not run."
	case "matrix":
		return "0 the matrix is written (1 with --min-coverage, below it), 2 seg could not run."
	case "diff":
		return "0 no requirement got worse, 1 one did, 2 seg could not run."
	case "review":
		return "0 no link needs a review, 1 one does (or seg.lock cannot be kept, or the tree has errors), 2 seg could not run."
	case "lsp":
		return "0 after the editor's shutdown and exit, 1 when it went away without them, 2 seg could not run (bad flags)."
	}
	return "0 done, whatever the verdicts; 2 seg could not run."
}

// flagError rewrites the flag package's message with flags spelt --name,
// as seg's help and docs spell them, and suggests the nearest flag for an
// unknown one.
func flagError(err error, fs *flag.FlagSet) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		hint := ""
		if s := diag.Closest(name, names); s != "" {
			hint = fmt.Sprintf(" (did you mean --%s?)", s)
		}
		return fmt.Sprintf("unknown flag --%s%s", name, hint)
	}
	for _, p := range []string{"for flag -", "for -", "argument: -"} {
		msg = strings.Replace(msg, p, p+"-", 1)
	}
	return msg
}

// evaluationDate is --at, or today in UTC.
func (o *options) evaluationDate(now func() time.Time) time.Time {
	if o.at != "" {
		t, _ := time.Parse(time.DateOnly, o.at)
		return t
	}
	y, m, d := now().UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
