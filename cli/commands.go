package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/report"
)

var checkFormats = map[string]func(io.Writer, *check.Check, report.TextOptions) error{
	"text":   report.WriteText,
	"json":   report.WriteJSONWith,
	"github": func(w io.Writer, c *check.Check, _ report.TextOptions) error { return report.WriteGitHub(w, c, false) },
	"sarif":  func(w io.Writer, c *check.Check, _ report.TextOptions) error { return report.WriteSARIF(w, c, Version) },
}

func runCheck(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
	o, err := parseFlags("check", args, stdout)
	if err != nil {
		return 0, check.Stats{}, err
	}
	if err := wantFormat("check", o); err != nil {
		return 0, check.Stats{}, err
	}
	if err := readThresholds("check", o); err != nil {
		return 0, check.Stats{}, err
	}
	write := checkFormats[o.format]
	root, files := checkArgs(o.args)
	t, opts, err := open(root, o)
	if err != nil {
		return 0, check.Stats{}, err
	}
	if o.listFiles {
		return listFiles(t, stdout)
	}
	only := append(append([]string(nil), o.only...), files...)
	if err := checkNames(root, t.Config, only); err != nil {
		return 0, check.Stats{}, err
	}
	w, colored, done, discard, err := output(o, stdout)
	if err != nil {
		return 0, check.Stats{}, err
	}
	defer discard()
	render := func(c *check.Check, w io.Writer) (int, error) {
		if len(only) > 0 && o.blame != "all" {
			c = c.Narrow(blamed(root, only))
		}
		c, err := filtered(c, o, stderr)
		if err != nil {
			return 0, err
		}
		c.MinCoverage = o.thresholds
		return exitFor(c), write(w, c, report.TextOptions{Colored: colored, Quiet: o.quiet, Evidence: o.evidence})
	}
	// A tree unchanged since a run with the same flags gets that run's
	// report (docs/performance.md, "The result cache"). The key holds what
	// the report depends on; not --output, which only says where it goes.
	parts := []string{"check", o.format, fmt.Sprint(colored), o.blame,
		strings.Join(o.only, "\x00"), strings.Join(o.args, "\x00"),
		"fail-on", o.failOn.String(), "min-coverage", o.minCoverage, "quiet", fmt.Sprint(o.quiet), "evidence", fmt.Sprint(o.evidence),
		"filter", o.filter, "allow-empty", fmt.Sprint(o.allowEmpty), "needs-files", strings.Join(o.needsFiles, "\x00")}
	code, stats, err := t.RunReport(opts, parts, w, render)
	var usage *usageError
	if errors.As(err, &usage) {
		return 0, stats, err // render's own, already worded (--filter)
	}
	if err != nil {
		return 0, stats, fmt.Errorf("seg: %v", err)
	}
	leftOutNote(t, stderr)
	return code, stats, done()
}

// checkArgs splits check's positional arguments into the root and the
// files to narrow to. When the first argument is a file rather than a
// folder (an .rst file), there is no root argument: the root is the working folder and
// every argument is a file. That is how pre-commit calls a hook whose entry
// is plain `seg check`.
func checkArgs(args []string) (string, []string) {
	if len(args) > 0 && strings.HasSuffix(args[0], ".rst") {
		// A missing .rst is a file name too, refused as such by
		// checkNames, not a root that cannot be read.
		if info, err := os.Stat(args[0]); err != nil || !info.IsDir() {
			return ".", args
		}
	}
	return rootArg(args)
}

// checkNames refuses (exit 2) a file named on check's command line (or by
// --only) that is not one of the files seg reads under the root: a name
// that does not exist, a folder, a file outside the root, a file that is
// not .rst, or one the walk skips. Such a name would narrow the report to
// nothing and pass (docs/precommit.md, "Names that match no file").
func checkNames(root string, cfg *config.Config, names []string) error {
	if len(names) == 0 {
		return nil
	}
	lst, err := check.List(root, cfg)
	if err != nil {
		return nil // the run reports a root it cannot read
	}
	read := make(map[string]bool, len(lst.Files))
	for _, p := range lst.Paths() {
		read[p] = true
	}
	for _, n := range names {
		rel, inside := underRoot(root, n)
		if inside && read[rel] {
			continue
		}
		st, err := os.Stat(n)
		switch {
		case err != nil:
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return usagef("seg check: %s: %v", n, err)
		case st.IsDir():
			return usagef("seg check: %s is a folder: name the files to narrow to (the root is %s)", n, root)
		case !inside:
			return usagef("seg check: %s is not under the root %s", n, root)
		case !strings.HasSuffix(n, ".rst"):
			return usagef("seg check: %s is not a file seg reads (only .rst files are)", n)
		default:
			return usagef("seg check: %s is not a file seg reads: it is skipped under the root %s (a hidden name, a _build, node_modules or vendor folder, a linked folder, or an exclude glob of the config)", n, root)
		}
	}
	return nil
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
	if rel, ok := underRoot(root, name); ok {
		return rel
	}
	return filepath.ToSlash(filepath.Clean(name))
}

// underRoot returns name's slash path relative to root, and whether it is
// under root: as written, or else with the links of the root and of the
// name's folder followed (a root given through a link, an absolute name
// through the real folders).
func underRoot(root, name string) (string, bool) {
	rel := func(root, name string) (string, bool) {
		absRoot, err1 := filepath.Abs(root)
		absName, err2 := filepath.Abs(name)
		if err1 != nil || err2 != nil {
			return "", false
		}
		r, err := filepath.Rel(absRoot, absName)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", false
		}
		return filepath.ToSlash(r), true
	}
	if r, ok := rel(root, name); ok {
		return r, true
	}
	realRoot, err1 := filepath.EvalSymlinks(root)
	realDir, err2 := filepath.EvalSymlinks(filepath.Dir(name))
	if err1 != nil || err2 != nil {
		return "", false
	}
	return rel(realRoot, filepath.Join(realDir, filepath.Base(name)))
}

func runExplain(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
	o, err := parseFlags("explain", args, stdout)
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
	if len(o.args) == 2 {
		// The second argument is often a second ID (seg explain A B), or
		// a typo; say what it was taken for rather than "cannot read root".
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			what := "there is no folder " + strconv.Quote(root)
			if err == nil {
				what = strconv.Quote(root) + " is a file, not a folder"
			}
			return 0, check.Stats{}, usagef("seg explain: %s. The second argument is the tree's root folder (usage: seg explain ID [ROOT]); to explain several IDs, run seg explain once for each", what)
		}
	}
	if err := wantFormat("explain", o); err != nil {
		return 0, check.Stats{}, err
	}
	c, stats, err := load(root, o, stderr)
	if err != nil {
		return 0, stats, err
	}
	if _, err := report.ExplainTargets(c, id); err != nil {
		return 0, stats, fmt.Errorf("seg explain: %v", err)
	}
	// explain is no gate: it exits 0 whatever the verdicts it explains.
	code, err := emit(o, stdout, func(w io.Writer, colored bool) error {
		opt := report.ExplainOptions{Depth: o.depth, Colored: colored}
		if o.format == "json" {
			return report.WriteExplainJSON(w, c, id, opt)
		}
		return report.WriteExplain(w, c, id, opt)
	}, exitOK)
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
	o, err := parseFlags("graph", args, stdout)
	if err != nil {
		return 0, check.Stats{}, err
	}
	if err := wantFormat("graph", o); err != nil {
		return 0, check.Stats{}, err
	}
	write := graphFormats[o.format]
	if len(o.args) > 1 {
		return 0, check.Stats{}, usagef("seg graph: too many arguments (usage: seg graph [ROOT])")
	}
	root, _ := rootArg(o.args)
	c, stats, err := load(root, o, stderr)
	if err != nil {
		return 0, stats, err
	}
	// graph is no gate: it exits 0 whatever the verdicts it shows.
	code, err := emit(o, stdout, func(w io.Writer, _ bool) error { return write(w, c) }, exitOK)
	return code, stats, err
}
