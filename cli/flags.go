package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
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
	minCoverage   float64
	linkTemplate  string
	filter        string
	allowEmpty    bool
	needsFiles    stringList

	args []string // positional arguments, in order
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// usageError is a problem with the command line: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// parseFlags reads flags and positional arguments in any order, as users
// type them (`seg check docs --format json`).
func parseFlags(cmd string, args []string, defFormat string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("seg "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.format, "format", defFormat, "output format")
	fs.StringVar(&o.output, "output", "", "write the report to `FILE` instead of standard output")
	fs.StringVar(&o.color, "color", "auto", "color: auto, always or never")
	fs.StringVar(&o.at, "at", "", "evaluation date `YYYY-MM-DD` (default: today, UTC)")
	fs.StringVar(&o.config, "config", "", "config `FILE` (default: ROOT/seg.toml when present)")
	fs.Var(&o.results, "results", "test results `FILE` or glob (JUnit XML or go test -json); repeatable")
	fs.StringVar(&o.witness, "witness", "", "implementation `ID[,ID...]` the --results outcomes witness")
	fs.StringVar(&o.resultsConfig, "results-config", "", "configuration `NAME` of the --results outcomes")
	fs.BoolVar(&o.noCache, "no-cache", false, "do not read or write the parse cache")
	fs.BoolVar(&o.allowEmpty, "allow-empty", false, "a tree without any requirement is no error (no-requirements)")
	fs.Var(&o.needsFiles, "needs-file", "`URL=FILE`: the local copy of a needs.json the project names by URL (external needs, needimport); repeatable")
	if cmd == "check" || cmd == "matrix" || cmd == "graph" || cmd == "explain" {
		fs.StringVar(&o.filter, "filter", "", "list only the requirements (graph: the nodes) the sphinx-needs filter `EXPR` selects, e.g. 'status == \"open\" and \"safety\" in tags'; verdicts still come from the whole tree")
	}
	if cmd == "check" {
		fs.Var(&o.only, "only", "show only diagnostics in `FILE` (repeatable); verdicts still come from the whole tree")
		fs.Func("blame", "with FILEs or --only: `touched` (default) fails only for findings in or depending on them; all fails for any finding", func(v string) error {
			if v != "touched" && v != "all" {
				return fmt.Errorf("want touched or all, not %q", v)
			}
			o.blame = v
			return nil
		})
	}
	if cmd == "matrix" {
		fs.Float64Var(&o.minCoverage, "min-coverage", 0, "exit 1 when less than `PCT` percent of requirements are satisfied")
		fs.StringVar(&o.linkTemplate, "link-template", "", "link `TEMPLATE` with {file} and {line}, e.g. https://host/repo/blob/main/{file}#L{line}")
	}
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(stderr, "usage: seg %s [flags] %s\n\nflags:\n", cmd, positionalUsage[cmd])
				fs.SetOutput(stderr)
				fs.PrintDefaults()
				return nil, flag.ErrHelp
			}
			return nil, usagef("seg %s: %v", cmd, err)
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
	atGiven := false
	fs.Visit(func(f *flag.Flag) { atGiven = atGiven || f.Name == "at" })
	if atGiven {
		if _, err := time.Parse(time.DateOnly, o.at); err != nil {
			return nil, usagef("seg %s: --at must be a date YYYY-MM-DD, not %q", cmd, o.at)
		}
	}
	return o, nil
}

var positionalUsage = map[string]string{
	"check":   "[ROOT [FILE...]]",
	"explain": "ID [ROOT]",
	"matrix":  "[ROOT]",
	"graph":   "[ROOT]",
	"import":  "[ROOT]",
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
