package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/needs"
)

// initTrees are the kinds of tree seg init knows.
var initTrees = map[string]map[string]string{
	"plain":                 {"docs/a.rst": ".. sreq:: A\n   :id: REQ-1\n"},
	"sphinx-needs defaults": {"ubproject.toml": "[project]\nname = \"x\"\n"},
	"ubproject.toml": {"ubproject.toml": `[needs]
types = [
    { directive = "sw.req", title = "Software requirement" },
    { directive = "stkh+req", title = "Stakeholder need" },
    { directive = "tc", title = "Test case" },
    { directive = "swunit", title = "Software unit" },
    { directive = "risk", title = "Risk" },
]
extra_links = [
    { option = "satisfies" },
    { option = "verifies" },
    { option = "implements" },
    { option = "mitigated.by" },
]
`},
	"conf.py": {"doc/conf.py": `extensions = ["sphinxcontrib.needs"]
needs_types = [dict(directive="requirement", title="Requirement"), dict(directive="testcase", title="Test")]
needs_extra_links = [dict(option="tests"), dict(option="refines")]
`},
}

// The seg.toml seg init writes loads with seg's own config loader, in
// every kind of tree, and maps exactly the need types and link types it
// says it guessed: names that need quoting in TOML included.
func TestInitWritesALoadableConfig(t *testing.T) {
	for name, files := range initTrees {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			mxWrite(t, dir, files)
			var stdout, stderr bytes.Buffer
			if code := Execute([]string{"init", dir}, &stdout, &stderr); code != 0 {
				t.Fatalf("seg init: exit %d\n%s", code, stderr.String())
			}
			cfg, err := config.Load(dir, "")
			if err != nil {
				t.Fatalf("the written seg.toml does not load: %v", err)
			}
			if cfg.File != filepath.Join(dir, config.FileName) {
				t.Errorf("config file read: %q", cfg.File)
			}
			n := cfg.Needs
			if name == "plain" {
				if n != nil {
					t.Errorf("a plain tree became a sphinx-needs project")
				}
				return
			}
			if n == nil {
				t.Fatal("the sphinx-needs project was not read")
			}
			mapped := 0
			for _, ty := range n.Types {
				want := guessKind(ty)
				if want != "" {
					mapped++
				}
				if ty.Kind != want {
					t.Errorf("need type %q: kind %v, want %v", ty.Directive, ty.Kind, want)
				}
			}
			for _, l := range n.Links {
				want := ""
				if m, ok := guessLinkByName(l.Option); ok {
					want = m.String()
				}
				if needs.Mapping(l) != want {
					t.Errorf("link type %q: mapping %q, want %q", l.Option, needs.Mapping(l), want)
				}
			}
			if mapped == 0 {
				t.Errorf("no need type mapped:\n%s", readFile(t, filepath.Join(dir, config.FileName)))
			}
		})
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// An existing seg.toml is never written over: exit 2, the file as it was;
// a bad sphinx-needs project leaves nothing behind.
func TestInitNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	own := "# mine\nextra_options = [\"status\"]\n"
	mxWrite(t, dir, map[string]string{config.FileName: own})
	var stdout, stderr bytes.Buffer
	if code := Execute([]string{"init", dir}, &stdout, &stderr); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if got := readFile(t, filepath.Join(dir, config.FileName)); got != own {
		t.Errorf("seg.toml changed:\n%s", got)
	}
	if !strings.Contains(stderr.String(), "never writes over a file") || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}

	// Even a dangling symbolic link named seg.toml is left alone.
	dir = t.TempDir()
	if err := os.Symlink("elsewhere.toml", filepath.Join(dir, config.FileName)); err == nil {
		if code := Execute([]string{"init", dir}, &stdout, &stderr); code != 2 {
			t.Errorf("dangling link: exit %d, want 2", code)
		}
		if _, err := os.Lstat(filepath.Join(dir, "elsewhere.toml")); !os.IsNotExist(err) {
			t.Errorf("seg init wrote through the link: %v", err)
		}
	}

	dir = t.TempDir()
	mxWrite(t, dir, map[string]string{"ubproject.toml": "[needs]\nid_regex = \"(?<=x)\"\n"})
	if code := Execute([]string{"init", dir}, &stdout, &stderr); code != 2 {
		t.Errorf("bad ubproject.toml: exit %d, want 2", code)
	}
	if _, err := os.Stat(filepath.Join(dir, config.FileName)); !os.IsNotExist(err) {
		t.Errorf("a seg.toml was left behind: %v", err)
	}
}

func TestGuessKind(t *testing.T) {
	for _, c := range []struct{ directive, title, want string }{
		{"req", "Requirement", "requirement"},
		{"sw_req", "Software requirement", "requirement"},
		{"stkh_req", "", "requirement"},
		{"requirement", "", "requirement"},
		{"spec", "Specification", "requirement"},
		{"hlr", "High-level requirement", "requirement"},
		{"test", "Test Case", "test"},
		{"test_spec", "Test specification", "test"},
		{"tspec", "", "test"},
		{"tc", "", "test"},
		{"unit_test", "Unit test", "test"},
		{"impl", "Implementation", "implementation"},
		{"sw_unit", "Software unit", "implementation"},
		{"arch", "Architecture", ""},
		{"issue", "Issue", ""},
		{"feature", "Feature", ""},
	} {
		if got := guessKind(&needs.NeedType{Directive: c.directive, Title: c.title}); got != c.want {
			t.Errorf("%s (%q): %q, want %q", c.directive, c.title, got, c.want)
		}
	}
	for option, want := range map[string]string{
		"satisfies": "refines", "refines": "refines", "tests": "verifies", "verifies": "verifies",
		"implements": "implements", "links": "", "parent_needs": "", "blocks": "", "realizes": "",
	} {
		if got := guessEdge(option); got != want {
			t.Errorf("link %q: %q, want %q", option, got, want)
		}
	}
}

// The workflow seg init prints for a tree at the repository's top is
// docs/examples/seg.yml, which githubaction/ validates against the
// workflow schema.
func TestInitCISnippetIsTheExample(t *testing.T) {
	want := readFile(t, "../docs/examples/seg.yml")
	snippet := ciSnippet(".")
	_, body, ok := strings.Cut(snippet, "\n\n")
	if !ok {
		t.Fatalf("snippet without a heading:\n%s", snippet)
	}
	var got strings.Builder
	for _, line := range strings.SplitAfter(body, "\n") {
		got.WriteString(strings.TrimPrefix(line, "  "))
	}
	if segCommit() == "" && got.String() != want {
		t.Errorf("seg init's workflow:\n%s\ndocs/examples/seg.yml:\n%s", got.String(), want)
	}
}

// Every commented line of the seg.toml seg init writes that reads as TOML
// (a key and its value, or a table header) can be uncommented on its own,
// in every kind of tree init knows, and seg check still reads the file:
// no key lands in the wrong table, no placeholder is an invalid value.
func TestInitEveryLineUncomments(t *testing.T) {
	for name, files := range initTrees {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			mxWrite(t, dir, files)
			if code, _, stderr := run("init", dir); code != 0 {
				t.Fatalf("seg init: exit %d\n%s", code, stderr)
			}
			path := filepath.Join(dir, config.FileName)
			written := readFile(t, path)
			lines := strings.Split(written, "\n")
			tried := 0
			for i, line := range lines {
				setting, ok := strings.CutPrefix(line, "# ")
				if !ok || !readsAsTOML(setting) {
					continue // prose
				}
				tried++
				edited := slices.Clone(lines)
				edited[i] = setting
				if err := os.WriteFile(path, []byte(strings.Join(edited, "\n")), 0o644); err != nil {
					t.Fatal(err)
				}
				if code, _, stderr := run("check", "--at", "2026-11-29", dir); code == 2 {
					t.Errorf("uncommenting line %d (%s) breaks the file: %s", i+1, setting, stderr)
				}
			}
			if tried < 8 {
				t.Errorf("only %d commented settings in:\n%s", tried, written)
			}
		})
	}
}

// readsAsTOML reports whether s alone is a TOML key and value or a table
// header: a commented-out setting rather than prose.
func readsAsTOML(s string) bool {
	var v map[string]any
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	if _, err := toml.Decode(s, &v); err != nil {
		return false
	}
	return len(v) > 0 || strings.HasPrefix(s, "[")
}

// seg init's last lines are the adoption path with the tree's own
// figures, and each command they print does what they say: the report
// exits 0, and the thresholds are today's, so the gate passes today.
func TestInitPrintsTheFirstSteps(t *testing.T) {
	for name, files := range initTrees {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			mxWrite(t, dir, files)
			code, out, stderr := run("init", dir)
			if code != 0 {
				t.Fatalf("seg init: exit %d\n%s", code, stderr)
			}
			_, steps, ok := strings.Cut(out, "\nfirst steps on this tree (docs/adopt.md): ")
			if !ok {
				t.Fatalf("no first steps in:\n%s", out)
			}
			var cmds [][]string
			for _, line := range strings.Split(steps, "\n") {
				if _, cmd, ok := strings.Cut(line, "  seg "); ok && strings.HasPrefix(strings.TrimSpace(line), "1.") || ok && strings.HasPrefix(strings.TrimSpace(line), "2.") {
					cmds = append(cmds, strings.Fields(cmd))
				}
			}
			if len(cmds) == 0 {
				t.Fatalf("no commands in the first steps:\n%s", steps)
			}
			for _, args := range cmds {
				if code, _, stderr := run(args...); code != 0 {
					t.Errorf("seg %s: exit %d, want 0 on the tree as it is\n%s", strings.Join(args, " "), code, stderr)
				}
			}
		})
	}
}
