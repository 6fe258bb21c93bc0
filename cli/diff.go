package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/config"
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
		if len(o.results) > 0 || o.witness != "" || o.resultsConfig != "" || o.at != "" || o.config != "" || o.baseConfig != "" {
			return 0, stats, usagef("seg diff: --results, --witness, --results-config, --at, --config and --base-config go with --base: two files are already evaluated")
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
	if d.Failed() {
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
// temporary folder (removed afterwards) and evaluated there, at the same
// evaluation date as the other side. The head is read with its own
// configuration; the base with its own when it has one (seg.toml, or a
// sphinx-needs project file), else with the head's (--base-config
// chooses; docs/diff.md, "A base without configuration"). --results and
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
	switch o.baseConfig {
	case "", "head", "base":
	default:
		return nil, nil, stats, usagef("seg diff: --base-config %q: want head or base", o.baseConfig)
	}
	at := o.evaluationDate(now)
	at0 := o.at
	o.at = at.Format("2006-01-02") // both sides at one date
	defer func() { o.at = at0 }()
	// The head first: the base may be read with its configuration.
	var headCfg configFiles
	if o.head != "" {
		head, headCfg, err = evaluateRevision(root, o.head, o, nil)
		if err != nil {
			return nil, nil, stats, err
		}
	} else {
		t, opts, err := open(root, o)
		if err != nil {
			return nil, nil, stats, err
		}
		headCfg = readConfigFiles(root, t.Config)
		c, st, err := t.Run(opts)
		if err != nil {
			return nil, nil, st, fmt.Errorf("seg: %v", err)
		}
		stats = st
		if c, err = filtered(c, o, io.Discard); err != nil {
			return nil, nil, stats, err
		}
		head = report.Evaluation(c, "work tree")
	}
	base, _, err = evaluateRevision(root, o.base, o, &headCfg)
	return base, head, stats, err
}

// configFiles are the configuration files a tree was read with, each by
// its path under the root and its bytes; files outside the root are kept
// by their path.
type configFiles struct {
	files []configFile
}

type configFile struct {
	rel, abs string // rel is "" for a file outside the root
	data     []byte
	seg      bool // seg's own file (seg.toml or --config), not the sphinx-needs project file
}

// names lists the files, for a note.
func (c configFiles) names() string {
	var out []string
	for _, f := range c.files {
		if f.rel != "" {
			out = append(out, filepath.ToSlash(f.rel))
		} else {
			out = append(out, f.abs)
		}
	}
	return strings.Join(out, " and ")
}

// readConfigFiles are the seg.toml and sphinx-needs project file cfg was
// read from, under root.
func readConfigFiles(root string, cfg *config.Config) configFiles {
	var out configFiles
	for i, name := range []string{cfg.File, cfg.NeedsFile} {
		if name == "" {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		f := configFile{abs: name, data: data, seg: i == 0}
		if rel, ok := underRoot(root, name); ok {
			f.rel = filepath.FromSlash(rel)
		}
		out.files = append(out.files, f)
	}
	return out
}

// evaluateRevision writes the tree under root as it is at rev into a
// temporary folder and evaluates it there. With headCfg (the base), the
// tree is read with the head's configuration files when it has none of
// its own or --base-config head says so: they are written into the
// temporary tree at their paths. It returns the configuration files it
// was read with.
func evaluateRevision(root, rev string, o *options, headCfg *configFiles) (*diff.Evaluation, configFiles, error) {
	r, err := gitrev.Resolve(root, rev)
	if err != nil {
		return nil, configFiles{}, fmt.Errorf("seg diff: %v", err)
	}
	tmp, err := os.MkdirTemp("", "seg-diff-")
	if err != nil {
		return nil, configFiles{}, fmt.Errorf("seg diff: %v", err)
	}
	defer os.RemoveAll(tmp)
	if err := r.Extract(tmp); err != nil {
		return nil, configFiles{}, fmt.Errorf("seg diff: %s: %v", rev, err)
	}
	ro := *o
	ro.results, ro.witness, ro.resultsConfig = nil, "", ""
	ro.config = revisionConfig(root, o.config, tmp)
	if ro.config != "" && !fileExists(ro.config) {
		if headCfg == nil {
			return nil, configFiles{}, fmt.Errorf("seg diff: %s: --config %s is not in its tree", rev, o.config)
		}
		ro.config = "" // the base has none: decided below
	}
	used := ""
	if headCfg != nil {
		if used, err = baseConfig(tmp, &ro, o, headCfg); err != nil {
			return nil, configFiles{}, fmt.Errorf("seg diff: %s: %v", rev, err)
		}
	}
	t, opts, err := open(tmp, &ro)
	if err != nil {
		return nil, configFiles{}, fmt.Errorf("seg diff: %s: %v", rev, strings.TrimPrefix(err.Error(), "seg: "))
	}
	files := readConfigFiles(tmp, t.Config)
	c, _, err := t.Run(opts)
	if err != nil {
		return nil, configFiles{}, fmt.Errorf("seg diff: %s: %v", rev, err)
	}
	e := report.Evaluation(c, rev)
	e.Commit = r.Commit
	if headCfg != nil {
		e.Config = used
		switch {
		case used == "head" && o.baseConfig == "head":
			e.Note = fmt.Sprintf("the base %s is read with the head's configuration (%s), as --base-config head says", rev, headCfg.names())
		case used == "head":
			e.Note = fmt.Sprintf("the base %s has no seg configuration (no seg.toml, no sphinx-needs project file): it is read with the head's (%s); --base-config base reads it with seg's defaults", rev, headCfg.names())
		case used == "own" && o.baseConfig == "head":
			e.Note = fmt.Sprintf("the head has no seg configuration: the base %s is read with its own, though --base-config head was given", rev)
		case used == "none":
			e.Note = fmt.Sprintf("neither the base %s nor the head has a seg configuration: both are read with seg's defaults", rev)
			if o.baseConfig == "base" {
				e.Note = fmt.Sprintf("the base %s has no seg configuration: it is read with seg's defaults, as --base-config base says", rev)
			}
		}
	}
	return e, files, nil
}

// baseConfig decides the configuration the base tree at tmp is read
// with, and returns which: own, head or none. The head's files are
// written into the tree (a file outside the root is named with --config).
func baseConfig(tmp string, ro, o *options, headCfg *configFiles) (string, error) {
	probe, err := config.Load(tmp, ro.config)
	has := err != nil || probe.File != "" || probe.NeedsFile != ""
	switch {
	case o.baseConfig == "base" || o.baseConfig == "" && has:
		if has {
			return "own", nil
		}
		return "none", nil
	case len(headCfg.files) == 0 && has:
		// --base-config head, and the head has none: there is nothing of
		// the head's to read the base with.
		return "own", nil
	case len(headCfg.files) == 0:
		return "none", nil
	}
	root, err := os.OpenRoot(tmp)
	if err != nil {
		return "", err
	}
	defer root.Close()
	for _, f := range headCfg.files {
		if f.rel == "" {
			if f.seg {
				ro.config = f.abs // a seg.toml outside the root: the same file
			}
			continue // a sphinx-needs project file outside the root is read where it is
		}
		if err := root.MkdirAll(filepath.Dir(f.rel), 0o755); err != nil {
			return "", err
		}
		if err := root.WriteFile(f.rel, f.data, 0o644); err != nil {
			return "", err
		}
		if f.seg {
			ro.config = filepath.Join(tmp, f.rel)
		}
	}
	return "head", nil
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
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
