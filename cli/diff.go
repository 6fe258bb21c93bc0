package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diff"
	"github.com/seg-trace/seg/internal/gitrev"
	"github.com/seg-trace/seg/report"
)

var diffFormats = map[string]func(io.Writer, *diff.Diff, bool) error{
	"text":     report.WriteDiffText,
	"json":     func(w io.Writer, d *diff.Diff, _ bool) error { return report.WriteDiffJSON(w, d) },
	"markdown": func(w io.Writer, d *diff.Diff, _ bool) error { return report.WriteDiffMarkdown(w, d) },
}

// runDiff compares two evaluations (docs/diff.md): two JSON documents seg
// wrote, or the tree at a git revision and the work tree (or a second
// revision). It is a gate on what the change made worse: exit 1 when a
// requirement got worse, 0 otherwise, 2 when it cannot compare.
func runDiff(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
	o, err := parseFlags("diff", args, stdout)
	if err != nil {
		return 0, check.Stats{}, err
	}
	if err := wantFormat("diff", o); err != nil {
		return 0, check.Stats{}, err
	}
	write := diffFormats[o.format]
	var base, head *diff.Evaluation
	var stats check.Stats
	switch {
	case o.base != "":
		if o.baseGraph != "" || o.headGraph != "" {
			return 0, stats, usagef("seg diff: --base-graph and --head-graph go with two files, not with --base")
		}
		if len(o.args) > 1 {
			return 0, stats, usagef("seg diff: too many arguments (usage: seg diff --base REV [--head REV] [ROOT])")
		}
		root, _ := rootArg(o.args)
		base, head, stats, err = diffRevisions(root, o)
		if err != nil {
			return 0, stats, err
		}
	case o.head != "":
		return 0, stats, usagef("seg diff: --head goes with --base")
	default:
		if len(o.args) != 2 {
			return 0, stats, usagef("seg diff: want two seg check --format json files, or --base REV (usage: seg diff BASE.json HEAD.json, seg diff --base REV [ROOT])")
		}
		if len(o.results) > 0 || o.witness != "" || o.resultsConfig != "" || o.at != "" || o.config != "" {
			return 0, stats, usagef("seg diff: --results, --witness, --results-config, --at and --config go with --base: two files are already evaluated")
		}
		if base, err = readSide(o.args[0], o.baseGraph); err != nil {
			return 0, stats, err
		}
		if head, err = readSide(o.args[1], o.headGraph); err != nil {
			return 0, stats, err
		}
	}
	d := diff.Compare(base, head)
	code := exitOK
	if d.Worse > 0 {
		code = exitFailed
	}
	code, err = emit(o, stdout, func(w io.Writer, colored bool) error { return write(w, d, colored) }, code)
	return code, stats, err
}

// readSide reads one side from a file, joined to its graph document when
// one is given.
func readSide(file, graphFile string) (*diff.Evaluation, error) {
	read := func(name string) (*diff.Evaluation, error) {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("seg diff: cannot read %s: %v", name, bare(err))
		}
		defer f.Close()
		e, err := diff.Read(name, f)
		if err != nil {
			return nil, fmt.Errorf("seg diff: %v", err)
		}
		return e, nil
	}
	e, err := read(file)
	if err != nil || graphFile == "" {
		return e, err
	}
	g, err := read(graphFile)
	if err != nil {
		return nil, err
	}
	m, err := diff.Merge(e, g)
	if err != nil {
		return nil, fmt.Errorf("seg diff: %v", err)
	}
	return m, nil
}

// diffRevisions evaluates the tree under root at --base, and at --head or
// as it is in the work tree. A revision's tree is written by git into a
// temporary folder (removed afterwards) and evaluated there with its own
// seg.toml, at the same evaluation date as the other side. --results and
// the other results flags apply to the work tree only: results files are
// outputs of a run, not part of a revision.
func diffRevisions(root string, o *options) (base, head *diff.Evaluation, stats check.Stats, err error) {
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		if err == nil {
			return nil, nil, stats, fmt.Errorf("seg: root %q is not a folder", root)
		}
		return nil, nil, stats, fmt.Errorf("seg: cannot read root %q: %v", root, bare(err))
	}
	if o.head != "" && len(o.results) > 0 {
		return nil, nil, stats, usagef("seg diff: --results applies to the work tree, and --head names a revision")
	}
	at := o.evaluationDate(now)
	at0 := o.at
	o.at = at.Format("2006-01-02") // both sides at one date
	defer func() { o.at = at0 }()
	base, err = evaluateRevision(root, o.base, o)
	if err != nil {
		return nil, nil, stats, err
	}
	if o.head != "" {
		head, err = evaluateRevision(root, o.head, o)
		return base, head, stats, err
	}
	c, stats, err := load(root, o, io.Discard)
	if err != nil {
		return nil, nil, stats, err
	}
	return base, report.Evaluation(c, "work tree"), stats, nil
}

// evaluateRevision writes the tree under root as it is at rev into a
// temporary folder and evaluates it there.
func evaluateRevision(root, rev string, o *options) (*diff.Evaluation, error) {
	r, err := gitrev.Resolve(root, rev)
	if err != nil {
		return nil, fmt.Errorf("seg diff: %v", err)
	}
	tmp, err := os.MkdirTemp("", "seg-diff-")
	if err != nil {
		return nil, fmt.Errorf("seg diff: %v", err)
	}
	defer os.RemoveAll(tmp)
	if err := r.Extract(tmp); err != nil {
		return nil, fmt.Errorf("seg diff: %s: %v", rev, err)
	}
	ro := *o
	ro.results, ro.witness, ro.resultsConfig = nil, "", ""
	ro.config = revisionConfig(root, o.config, tmp)
	t, opts, err := open(tmp, &ro)
	if err != nil {
		return nil, fmt.Errorf("seg diff: %s: %v", rev, strings.TrimPrefix(err.Error(), "seg: "))
	}
	c, _, err := t.Run(opts)
	if err != nil {
		return nil, fmt.Errorf("seg diff: %s: %v", rev, err)
	}
	e := report.Evaluation(c, rev)
	e.Commit = r.Commit
	return e, nil
}

// revisionConfig is the --config a revision's tree is read with: none
// (its own seg.toml), the same path in the revision's tree when --config
// names a file under the root, else the file named.
func revisionConfig(root, config, tree string) string {
	if config == "" {
		return ""
	}
	if rel, ok := underRoot(root, config); ok {
		return filepath.Join(tree, filepath.FromSlash(rel))
	}
	return config
}
