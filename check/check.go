// Package check runs seg on a tree: it reads the configuration, lists,
// reads and parses the files (through the parse cache or not), turns test
// results into outcomes, builds the graph and evaluates it. Every command
// that looks at a tree gets its *Check from Run, and the whole-report
// cache (RunReport) is one wrapper around it.
package check

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/postprocess"
	"github.com/seg-trace/seg/results"
	"github.com/seg-trace/seg/rules"
	"github.com/seg-trace/seg/source"
)

// Tree is a root folder and its configuration, before anything of it is
// read.
type Tree struct {
	Root   string
	Config *config.Config
	// FailOn is the config's [check] fail_on, 0 when it has none.
	FailOn FailOn
	// engine is the rules the tree is checked against (rules.go), and
	// notEval what of the project's rules seg does not evaluate.
	engine  *rules.Engine
	notEval struct {
		once sync.Once
		what []string
		file string
		line int
	}
	// listed is the last run's listing of the tree (Listed).
	listed *Listing
}

// Open checks the root and reads its configuration (explicit names a
// config file; "" means ROOT/seg.toml when there is one). Its error means
// seg cannot do its job (exit 2).
func Open(root, explicit string) (*Tree, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("cannot read root %q: %v", root, errors.Unwrap(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("root %q is not a folder", root)
	}
	cfg, err := config.Load(root, explicit)
	if err != nil {
		return nil, fmt.Errorf("bad config: %w", err)
	}
	t := &Tree{Root: root, Config: cfg}
	if t.engine, err = ruleEngine(cfg); err != nil {
		return nil, fmt.Errorf("bad config: %w", err)
	}
	if cfg.FailOn != nil {
		if t.FailOn, err = ParseFailOn(cfg.FailOn...); err != nil {
			return nil, fmt.Errorf("bad config: %w", &config.Error{File: cfg.File, Line: cfg.FailOnLine, Msg: "[check] fail_on: " + err.Error()})
		}
	}
	return t, nil
}

// Options are what one run reads besides the tree.
type Options struct {
	// At is the evaluation date (only its UTC day counts).
	At time.Time
	// Results are the results files named on the command line (paths or
	// globs relative to the working folder), with the implementations
	// their outcomes witness and the configuration they ran under. The
	// configuration's [[results]] tables add their own.
	Results       []string
	Witnesses     []string
	ResultsConfig string
	// Cache, when not nil, is the parse cache the files are read through.
	Cache *cache.Cache
	// FailOn is what fails the check (--fail-on); 0 leaves it to the
	// config's [check] fail_on, or else DefaultFailOn.
	FailOn FailOn
	// AllowEmpty: a tree without any requirement is no error
	// (--allow-empty; seg.toml's allow_empty does the same).
	AllowEmpty bool
	// Compact holds every file parsed as the parse cache holds it
	// (cache.Compact), for a process that keeps the parses (the language
	// server's Live): a little more work a file parsed, and its text is
	// not kept through the parse.
	Compact bool
}

// Stats is what the parse cache did in one run.
type Stats = cache.Stats

// Check is everything one run found.
type Check struct {
	Root   string
	At     time.Time
	Config *config.Config
	// Files holds every file a position can point into.
	Files  *source.FileSet
	Parsed []*parser.File
	Graph  *graph.Graph
	Result *evaluate.Result
	// Diagnostics are every stage's, sorted by position.
	Diagnostics diag.List
	// Outcomes are the outcome nodes made from test results files.
	Outcomes []parser.Node
	// Unmatched lists the results cases no test specification claims.
	Unmatched []results.Unmatched
	// FailOn is what fails the check (Failed); 0 means DefaultFailOn.
	FailOn FailOn
	// MinCoverage are the coverage thresholds (--min-coverage) below
	// which the check fails too (Shortfalls).
	MinCoverage []evaluate.Threshold

	// Lock is what seg.lock holds (empty when the tree has none).
	Lock *pins.Lock
	// Suppressed are the diagnostics the project's suppress_warnings
	// silences: not counted, not shown but in JSON.
	Suppressed []Suppressed

	// only, when set, narrows the requirements shown (Narrow, Filter);
	// toFiles says Narrow did, filter the filter string Filter applied.
	only    func(Requirement) bool
	toFiles bool
	filter  string
	// deps are the source files the run read (sources.go).
	deps string
	// shown, when set, are the nodes a filtered check draws (Filter).
	shown map[*graph.Node]bool
	// outcomeIndex maps the IDs of Outcomes to their index (ResultsOutcome).
	outcomeIndex func() map[string]int
}

// Run reads, builds and evaluates the tree. Its error means seg cannot do
// its job (an unreadable root, a results file named on the command line
// that cannot be read).
func (t *Tree) Run(o Options) (*Check, Stats, error) {
	fset := source.NewFileSet()
	files, unlisted, l, err := listTree(t.Root, t.Config.Parser, t.Config.Needs, fset)
	if err != nil {
		return nil, Stats{}, err
	}
	t.listed = l
	p, stats := t.parser(o)
	parsed := loadWithIncludes(t.Root, l, files, unlisted, p, fset)
	c, err := t.finish(o, fset, parsed, nil)
	return c, stats(len(files)), err
}

// parser is the Parser a run reads the tree with, and what reports its
// figures.
func (t *Tree) parser(o Options) (Parser, func(int) Stats) {
	if o.Cache == nil || o.Cache.Overlaps(t.Root) {
		var p Parser = Plain{t.Config.Parser}
		if o.Compact {
			p = compactPlain{t.Config.Parser}
		}
		return p, func(n int) Stats { return Stats{Files: n, Misses: n} }
	}
	cp := &cached{c: o.Cache, cfg: t.Config.Parser, compact: o.Compact}
	return cp, func(n int) Stats {
		o.Cache.Finish()
		return o.Cache.Stats(n)
	}
}

// finish makes outcomes of the results files, reads seg.lock and the
// implementations' source files, builds the graph and evaluates it. lm,
// when not nil, is what the last run of the same tree left (Live).
func (t *Tree) finish(o Options, fset *source.FileSet, parsed []*parser.File, lm *liveMemo) (*Check, error) {
	var gm *graph.Memo
	var sm *sourceMemo
	var rm *resultsMemo
	var km *lockMemo
	if lm != nil {
		gm, sm, rm, km = &lm.graph, &lm.sources, &lm.results, &lm.lock
	}
	var diags diag.List
	for _, f := range parsed {
		diags = append(diags, f.Diagnostics...)
	}
	// A sphinx-needs tree as sphinx-needs holds it once it has read every
	// document (:delete:, needimport, external needs, parent_needs,
	// needextend, dynamic functions).
	pp := postprocess.Run(postprocess.Input{Root: t.Root, Files: fset, Parsed: parsed,
		Project: t.Config.Needs, Config: t.Config.Parser})
	parsed = pp.Parsed
	diags = append(diags, pp.Diagnostics...)
	// Implementations at the code tags of the tree's source files
	// (codetags.go): witnesses may name them.
	ct := t.codeTags(o, fset, lm.codeOverlay(), lm)
	diags = append(diags, ct.diags...)
	rs, err := t.loadResults(o, fset, parsed, ct.nodes, rm)
	if err != nil {
		return nil, err
	}
	diags = append(diags, rs.diags...)
	var memo *cache.Sums
	if o.Cache != nil && !o.Cache.Overlaps(t.Root) {
		memo = o.Cache.Sums()
		defer memo.Save()
	}
	parsed, sdiags, deps := t.sources(parsed, memo, sm)
	diags = append(diags, sdiags...)
	lock, err := t.readLock(fset, km)
	if err != nil {
		return nil, err
	}
	diags = append(diags, lock.Diagnostics...)
	extra := lm.extraNodes(rs.nodes, ct.nodes, pp.External)
	g, gdiags := graph.BuildMemo(fset, parsed, extra, t.Config.Needs, lock.Pins, gm)
	diags = append(diags, gdiags...)
	diags = append(diags, graph.LinkMappingWarnings(g)...)

	// The rules read the built graph and change nothing of it: they run
	// beside the evaluation, which reads it too.
	diags = append(diags, t.ruleProblems(fset)...)
	ruled := make(chan diag.List, 1)
	go func() { ruled <- t.runRules(parsed, pp.External, g) }()
	at := evaluate.Day(o.At)
	eo := evaluate.Options{At: at, MaxAgeDays: t.Config.MaxAgeDays, RequirePins: t.Config.RequirePins, WaiverWarnDays: t.Config.WaiverWarnDays, Policies: t.policies()}
	// After a build that patched the last graph, only the verdicts that
	// read the nodes it made anew are decided again (evaluate.Memo: the
	// delta names the graph it goes from, and a last result of another
	// graph is not updated).
	var em *evaluate.Memo
	if lm != nil {
		em = &lm.eval
	}
	res := em.Evaluate(g, eo, gm.Delta())
	diags = append(diags, res.Diagnostics...)
	diags = append(diags, <-ruled...)
	diags = t.unmapped(fset, diags, g, o)
	diags.Sort(fset)
	c := &Check{
		Root: t.Root, At: at, Config: t.Config, Files: fset, Parsed: parsed,
		Graph: g, Result: res, Diagnostics: diags, Lock: lock,
		Outcomes: rs.outcomes, Unmatched: rs.unmatched, deps: deps,
		FailOn:       cmp.Or(o.FailOn, t.FailOn),
		outcomeIndex: sync.OnceValue(func() map[string]int { return indexOutcomes(rs.outcomes) }),
	}
	c.suppress(t.Config.Needs)
	c.ignore(t)
	return c, nil
}

// Counts are the figures of a summary line.
type Counts struct {
	Requirements, Satisfied, Unsatisfied int
	// Failing and Unproven split the unsatisfied ones by status.
	Failing, Unproven int
	Errors, Warnings  int
}

// Requirement pairs a requirement node with its verdict.
type Requirement struct {
	Node    *graph.Node
	Verdict evaluate.Verdict
}
