package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/internal/lazyre"
	"github.com/seg-trace/seg/needs"
)

// seg init writes a starting seg.toml into a tree and prints how to run
// seg from pre-commit and from GitHub Actions (docs/init.md). It never
// writes over a file: a tree that has a seg.toml is refused.

const initUsage = `usage: seg init [ROOT]

Writes ROOT/seg.toml (ROOT defaults to the current folder), a commented
configuration to start from: in a sphinx-needs project (ubproject.toml,
or a conf.py that loads sphinx-needs) it maps the need types and link
types it can recognise by name onto seg's kinds and links, for you to
check. Then prints the pre-commit and GitHub Actions snippets.

seg init never writes over a file: when ROOT/seg.toml exists it changes
nothing and exits 2.
`

func runInit(args []string, stdout, _ io.Writer) (int, error) {
	fs := flag.NewFlagSet("seg init", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, initUsage)
			return 0, flag.ErrHelp
		}
		return 0, usagef("seg init: %s\n\n%s", flagError(err, fs), initUsage)
	}
	if fs.NArg() > 1 {
		return 0, usagef("seg init: want at most one argument, the root; got %q\n\n%s", fs.Args(), initUsage)
	}
	root := "."
	if fs.NArg() == 1 {
		root = fs.Arg(0)
	}
	info, err := os.Stat(root)
	if err != nil {
		return 0, fmt.Errorf("seg init: cannot read root %q: %v", root, errors.Unwrap(err))
	}
	if !info.IsDir() {
		return 0, fmt.Errorf("seg init: root %q is not a folder", root)
	}
	path := filepath.Join(root, config.FileName)
	if _, err := os.Lstat(path); err == nil {
		return 0, fmt.Errorf("seg init: %s already exists; seg init never writes over a file (edit it, or move it away and run seg init again)", path)
	}
	// The tree without a seg.toml: what config.Load finds of a
	// sphinx-needs project is what the written file will be read with.
	cfg, err := config.Load(root, "")
	if err != nil {
		return 0, fmt.Errorf("seg init: cannot read the tree's sphinx-needs project, so no seg.toml was written: %w", err)
	}
	var plan *needsPlan
	text := ""
	if cfg.Metamodel != nil {
		// An S-CORE tree: its metamodel maps it, and the file names that
		// and nothing else (docs/score.md).
		text = scoreTOML(root, cfg)
	} else {
		if cfg.Needs != nil {
			plan = planNeeds(root, cfg)
		}
		text = initTOML(plan)
	}
	if err := createNew(path, text); err != nil {
		return 0, fmt.Errorf("seg init: %v", err)
	}
	// What seg init writes must load; if it did not, that is seg's bug,
	// and the file it just made is taken back rather than left broken.
	if _, err := config.Load(root, ""); err != nil {
		os.Remove(path)
		return 0, fmt.Errorf("seg init: the seg.toml written does not load (a bug in seg init; nothing was left behind): %w", err)
	}

	slashRoot := filepath.ToSlash(filepath.Clean(root))
	fmt.Fprintf(stdout, "seg init: wrote %s", filepath.ToSlash(path))
	if cfg.Metamodel != nil {
		fmt.Fprintf(stdout, " for the S-CORE tree checked against %s (found by %s)", relOrAbs(root, cfg.Metamodel.File), cfg.MetamodelFound.How)
	}
	if plan != nil {
		fmt.Fprintf(stdout, " for the sphinx-needs project in %s: %d of %d need types and %d of %d link types mapped by their names or their use in the tree; check them",
			plan.source, plan.typesMapped, len(plan.types), plan.linksMapped, len(plan.links))
	}
	fmt.Fprintf(stdout, "\n\nnext: seg check %s\n\n", slashRoot)
	fmt.Fprint(stdout, preCommitSnippet(slashRoot))
	fmt.Fprint(stdout, "\n")
	fmt.Fprint(stdout, ciSnippet(slashRoot))
	fmt.Fprint(stdout, firstSteps(root, slashRoot))
	return 0, nil
}

// firstSteps are the last lines seg init prints: the road from reporting
// to gating (docs/adopt.md) with this tree's own figures, read by a check
// of the tree with the file just written. A tree seg cannot check says
// why instead.
func firstSteps(root, slashRoot string) string {
	var b strings.Builder
	b.WriteString("\nfirst steps on this tree (docs/adopt.md): ")
	t, err := check.Open(root, "")
	var c *check.Check
	if err == nil {
		c, _, err = t.Run(check.Options{At: now()})
	}
	if err != nil {
		fmt.Fprintf(&b, "seg check cannot run yet: %v\n", err)
		return b.String()
	}
	n := c.Counts()
	cv := c.Coverage().All
	fmt.Fprintf(&b, "%s, %d satisfied; %s, %s\n", plural(n.Requirements, "requirement"), n.Satisfied, plural(n.Errors, "error"), plural(n.Warnings, "warning"))
	fmt.Fprintf(&b, "  1. report, failing on nothing:  seg check %s --fail-on none\n", slashRoot)
	if n.Errors > 0 {
		fmt.Fprintf(&b, "     (then fix or suppress the %s: seg cannot read those parts of the tree as written)\n", plural(n.Errors, "error"))
	}
	if n.Requirements > 0 {
		gate := []string{fmt.Sprintf("satisfied=%d", floorPct(cv.Satisfied, cv.Requirements))}
		if cv.Leaves > 0 {
			gate = append(gate, fmt.Sprintf("implemented=%d", floorPct(cv.Implemented, cv.Leaves)), fmt.Sprintf("verified=%d", floorPct(cv.Verified, cv.Leaves)))
		}
		fmt.Fprintf(&b, "  2. gate on today's figures:     seg check %s --fail-on errors --min-coverage %s\n", slashRoot, strings.Join(gate, ","))
	}
	fmt.Fprintf(&b, "  3. hold every change to them:   seg diff --base origin/main %s\n", slashRoot)
	return b.String()
}

// floorPct is n of d as a whole percentage, rounded down: a threshold the
// tree meets today.
func floorPct(n, d int) int {
	if d == 0 {
		return 0
	}
	return n * 100 / d
}

// createNew writes a file that must not exist yet (O_EXCL: not even one
// made between the check above and now).
func createNew(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s already exists; seg init never writes over a file", path)
		}
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// needsPlan is what seg init maps of a sphinx-needs project.
type needsPlan struct {
	source                   string // the project file, relative to the root
	types, links             []guess
	typesMapped, linksMapped int
}

// guess is one need type or link type and the seg name guessed for it
// ("" when none).
type guess struct {
	name, title, onto string
	// value is the TOML value written (onto quoted when ""), why how it
	// was guessed ("guessed from the name" when "").
	value, why string
}

func planNeeds(root string, cfg *config.Config) *needsPlan {
	p := &needsPlan{source: "sphinx-needs' defaults"}
	if cfg.NeedsFile != "" {
		p.source = cfg.NeedsFile
		if rel, err := filepath.Rel(root, cfg.NeedsFile); err == nil {
			p.source = filepath.ToSlash(rel)
		}
	}
	for _, t := range cfg.Needs.Types {
		g := guess{name: t.Directive, title: t.Title, onto: guessKind(t)}
		if g.onto != "" {
			p.typesMapped++
		}
		p.types = append(p.types, g)
	}
	p.guessLinks(root, cfg)
	return p
}

var wordSep = lazyre.New(`[^a-z0-9]+`)

// words splits names and titles into lower-case words: "sw_req" and
// "Software requirement" give sw, req and software, requirement.
func words(s ...string) []string {
	var out []string
	for _, x := range s {
		for _, w := range wordSep.Split(strings.ToLower(x), -1) {
			if w != "" {
				out = append(out, w)
			}
		}
	}
	return out
}

// guessKind maps a need type onto a seg kind by the words of its
// directive and title: test words first (a "test specification" is a
// test), then implementation words, then requirement words
// (requirements and specifications). Anything else stays unmapped.
func guessKind(t *needs.NeedType) string {
	ws := words(t.Directive, t.Title)
	has := func(ok func(string) bool) bool {
		for _, w := range ws {
			if ok(w) {
				return true
			}
		}
		return false
	}
	switch {
	case has(func(w string) bool { return strings.HasPrefix(w, "test") || w == "tc" || w == "tspec" }):
		return "test"
	case has(func(w string) bool { return strings.HasPrefix(w, "impl") || w == "unit" || w == "code" }):
		return "implementation"
	case has(func(w string) bool {
		return strings.HasPrefix(w, "req") || w == "requirement" || w == "requirements" ||
			w == "spec" || w == "specification" || w == "specifications"
	}):
		return "requirement"
	}
	return ""
}

// guessEdge maps a link option onto seg's link by its name: the usual
// names for "this refines, verifies or implements the need it names".
func guessEdge(option string) string {
	switch strings.ToLower(option) {
	case "refines", "refine", "satisfies", "satisfy", "derives", "derives_from":
		return "refines"
	case "verifies", "verify", "tests", "validates":
		return "verifies"
	case "implements", "implement":
		return "implements"
	}
	return ""
}

var (
	bareKey = lazyre.New(`^[A-Za-z0-9_-]+$`)
	fullSHA = lazyre.New(`^[0-9a-f]{40}$`)
)

// tomlKey writes a key bare when TOML allows it, else quoted (need type
// and option names may hold '.', ':', '+' or '!').
func tomlKey(s string) string {
	if bareKey.MatchString(s) {
		return s
	}
	return fmt.Sprintf("%q", s)
}

const initHeader = `# seg.toml: how seg reads this tree (written by seg init).
#
# seg reads this file from the root it checks. Every key is optional; a
# key seg does not know is an error (exit 2), so a typo cannot pass
# unnoticed. Check it with: seg check ROOT
# The keys are described in seg's README ("Configuration").
`

// initTop holds the top-level keys. They come before any table: TOML
// puts a key into the last table header above it, so a key written after
// [needs.links] and uncommented there would be read as a link type.
// Every commented line that reads as TOML can be uncommented on its own
// and the file still loads (TestInitEveryLineUncomments).
const initTop = `
# IDs every node's :id: must match (Go regular expression syntax).
# Default: "^[A-Za-z0-9][A-Za-z0-9_.-]*$".
# id_pattern = "^[A-Z][A-Z0-9-]*$"

# Files and folders under the root that seg does not read (globs; **
# spans folders). seg reads every .rst file under the root otherwise.
# exclude = ["drafts/**"]

# Options your nodes may carry besides seg's own (any other option is an
# unknown-option error).
# extra_options = ["status", "tags"]

# Directives whose content is not reStructuredText: nothing in them is a
# node (code-block, literalinclude, math, ... already are).
# literal_directives = ["jupyter-execute"]

# Test results that become outcomes: JUnit XML or go test -json files
# (globs), the implementations a run of them witnesses, and the
# configuration they ran in. A test specification names its cases with
# :cases:. flaky = "failed" (the default) counts every run of a case the
# runner retried; "passed" counts a case whose last run passed once, as
# passed. Several files: more tables in the list, or [[results]] tables
# at the end of the file.
# results = [{ path = "build/test-results/*.xml", witnesses = ["IMPL-APP"], config = "linux-amd64", flaky = "failed" }]
`

// initTables holds the tables every tree can have, each header written
// so that any one of its commented keys can be uncommented.
const initTables = `
# Your own directive names for seg's kinds: requirement, test,
# implementation, outcome or waiver. seg's own names always work:
# req, sys, sreq (requirements), test, impl, outcome, waiver.
[directives]
# hlr = "requirement"
# tspec = "test"

# What fails seg check (exit 1), as its --fail-on takes it: errors,
# warnings, failing, unproven, unsatisfied (= failing and unproven), or
# none (report only). Errors always count unless none is given;
# --fail-on on the command line wins over this. The pre-commit hook
# passes --fail-on errors,failing.
[check]
# fail_on = ["errors", "unsatisfied"]
# How many days before its :expires: a waiver is warned of (0: never).
# waiver_warn_days = 30
# Findings known and accepted, by path and code, each with its reason:
# listed as suppressed, not counted (docs/check.md, "Suppressing a
# finding"; a ".. seg: ignore[CODE] reason" comment does it in the tree).
# ignore = [{ paths = ["docs/legacy/**"], codes = ["missing-id"], reason = "imported; IDs follow" }]
`

// initTOML is the seg.toml seg init writes.
func initTOML(p *needsPlan) string {
	var b strings.Builder
	b.WriteString(initHeader)
	b.WriteString(initTop)
	if p != nil {
		fmt.Fprintf(&b, `
# This tree is a sphinx-needs project, read from %s.
# seg reads every need type and link type of it; its rules (what makes a
# requirement satisfied) apply only to the need types mapped below onto a
# requirement, a test specification or an implementation, linked by the
# link types mapped onto refines, verifies or implements. A need of an
# unmapped type is still read, linked and shown (seg graph), and no rule
# applies to it.
#
# seg init guessed these lines from the names, and a link type whose
# name says nothing from the kinds its entries join in the tree (the
# note on each line says which). Check each one:
# - a type mapped onto "requirement" must be verified by a test and
#   implemented (or refined by requirements that are);
# - a link mapped onto "refines" goes from the finer requirement to the
#   one it refines, "verifies" from a test to what it verifies,
#   "implements" from an implementation to what it implements;
#   "auto" makes the edge the kinds at its two ends call for, and
#   { edge = "implements", reverse = true } the edge from the need named
#   back to the need the link is written on.
# A commented line was not guessed: uncomment it with the kind or link
# it should have, or leave it out.
`, p.source)
		b.WriteString("\n[needs.types]\n")
		writeGuesses(&b, p.types, "requirement", "requirement, test or implementation; or leave it out")
		b.WriteString("\n[needs.links]\n")
		writeGuesses(&b, p.links, "refines", "refines, verifies or implements; or leave it out")
	}
	b.WriteString(initTables)
	return b.String()
}

// writeGuesses writes one line per type or link: the guessed mapping, or
// a commented line that maps it onto first, a valid choice to edit, so
// that uncommenting it alone never breaks the file.
func writeGuesses(b *strings.Builder, gs []guess, first, choices string) {
	width := 0
	for _, g := range gs {
		n := len(tomlKey(g.name)) + len(" = "+g.textOr(first))
		if g.onto == "" {
			n += 2
		}
		width = max(width, n)
	}
	for _, g := range gs {
		about := ""
		if g.title != "" {
			about = fmt.Sprintf("%q: ", g.title)
		}
		line := fmt.Sprintf("%s = %s", tomlKey(g.name), g.textOr(first))
		note := about + "guessed from the name"
		if g.why != "" {
			note = about + g.why
		}
		if g.onto == "" {
			line = "# " + line
			note = about + "not guessed: " + choices
		}
		fmt.Fprintf(b, "%-*s  # %s\n", width, line, note)
	}
}

// segCommit is the commit seg was built from when the build recorded one
// in full (a build in a git checkout); "" otherwise (go install
// ...@version records none).
func segCommit() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, modified := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified || !fullSHA.MatchString(rev) {
		return ""
	}
	return rev
}

// revLine is the rev (or action ref) line of a snippet, with a comment
// saying where a commit comes from.
func revLine(how string) (string, string) {
	if c := segCommit(); c != "" {
		return c, "the commit this seg was built from; " + how
	}
	return "SEG_COMMIT", "put a full commit SHA of seg here; " + how
}

func preCommitSnippet(root string) string {
	rev, note := revLine("pre-commit autoupdate writes the newest")
	var b strings.Builder
	b.WriteString("pre-commit: add to .pre-commit-config.yaml at the repository's top, then run pre-commit install\n\n")
	fmt.Fprintf(&b, "  repos:\n    - repo: https://github.com/seg-trace/seg\n      rev: %s  # %s\n      hooks:\n        - id: seg\n", rev, note)
	if root != "." {
		fmt.Fprintf(&b, "          entry: seg check %s\n          files: ^%s/.*\\.rst$\n", root, regexp.QuoteMeta(root))
	}
	return b.String()
}

func ciSnippet(root string) string {
	rev, note := revLine("git ls-remote https://github.com/seg-trace/seg HEAD prints the newest")
	var b strings.Builder
	b.WriteString("GitHub Actions: .github/workflows/seg.yml (docs/ci.md)\n\n")
	fmt.Fprintf(&b, `  name: seg
  on:
    push:
      branches: [main]
    pull_request:
  permissions:
    contents: read
  jobs:
    trace:
      runs-on: ubuntu-latest
      permissions:
        contents: read
        security-events: write  # code scanning alerts from seg's SARIF
        actions: read
      steps:
        - uses: actions/checkout@v7
        - uses: seg-trace/seg@%s  # %s
          with:
            root: %s
`, rev, note, root)
	return b.String()
}

// textOr is the value written, first when nothing was guessed (a valid
// value on a commented line, so that uncommenting it keeps the file good).
func (g guess) textOr(first string) string {
	if g.onto == "" && g.value == "" {
		return fmt.Sprintf("%q", first)
	}
	return g.text()
}

func (g guess) text() string {
	if g.value != "" {
		return g.value
	}
	return fmt.Sprintf("%q", g.onto)
}

// scoreTOML is the seg.toml of an S-CORE tree: the metamodel it found,
// when that is in the tree (one found in Bazel's cache is found again
// from MODULE.bazel, and its path is this machine's only).
func scoreTOML(root string, cfg *config.Config) string {
	path := relOrAbs(root, cfg.Metamodel.File)
	if filepath.IsAbs(path) {
		return fmt.Sprintf("# seg reads this S-CORE tree's need types, links and rules from its\n# metamodel.yaml (docs/score.md), found by %s:\n# %s\n# seg finds it there again; to name one in the tree instead:\n# [needs]\n# metamodel = \"PATH\"\n", cfg.MetamodelFound.How, path)
	}
	return fmt.Sprintf("# seg reads this S-CORE tree's need types, links and rules from its\n# metamodel.yaml (docs/score.md).\n[needs]\nmetamodel = %q\n", path)
}

// relOrAbs is a path relative to the root with forward slashes, or the
// absolute path when it is outside the root.
func relOrAbs(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(r) {
		return filepath.ToSlash(r)
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
