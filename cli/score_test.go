package cli

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// scoreTree is an S-CORE tree whose conf.py names its metamodel; need
// feat__one breaks the metamodel's status pattern.
var scoreTree = map[string]string{
	"docs/conf.py":        "project = \"One\"\nextensions = [\"score_sphinx_bundle\"]\nscore_metamodel_yaml = \"metamodel.yaml\"\n",
	"docs/metamodel.yaml": "needs_types:\n  feat:\n    title: Feature\n    mandatory_options:\n      status: ^(valid)$\n    parts: 2\n",
	"docs/f/index.rst":    "F\n=\n\n.. feat:: One\n   :id: feat__one\n   :status: done\n",
}

func runSeg(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Execute(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// The exit codes of an S-CORE tree: a rule's error fails the check (1), a
// rule made a warning does not (0), a tree that needs a metamodel and has
// none is refused (2), and so is a [rules] severity of no rule's code.
func TestScoreExitCodes(t *testing.T) {
	dir := t.TempDir()
	mxWrite(t, dir, scoreTree)
	if code, out, _ := runSeg(t, "check", "--allow-empty", "--color", "never", dir); code != 1 || !strings.Contains(out, "[schema-option-pattern]") {
		t.Errorf("a rule's error: exit %d, want 1\n%s", code, out)
	}
	mxWrite(t, dir, map[string]string{"seg.toml": "allow_empty = true\n[rules.severity]\nschema-option-pattern = \"warning\"\n"})
	if code, out, _ := runSeg(t, "check", "--color", "never", dir); code != 0 || !strings.Contains(out, "warning: feat__one.status") {
		t.Errorf("a rule made a warning: exit %d, want 0\n%s", code, out)
	}
	mxWrite(t, dir, map[string]string{"seg.toml": "[rules.severity]\nschema-option-pattern = \"loud\"\n"})
	if code, _, errOut := runSeg(t, "check", dir); code != 2 || !strings.Contains(errOut, `schema-option-pattern = "loud": a severity is one of error, warning, off`) {
		t.Errorf("a bad severity: exit %d, want 2\n%s", code, errOut)
	}
	os.Remove(filepath.Join(dir, "seg.toml"))
	os.Remove(filepath.Join(dir, "docs", "metamodel.yaml"))
	code, out, errOut := runSeg(t, "check", dir)
	if code != 2 || out != "" || !strings.Contains(errOut, "metamodel-not-found") || !strings.Contains(errOut, "docs/conf.py score_metamodel_yaml (docs/metamodel.yaml: no such file)") {
		t.Errorf("no metamodel: exit %d, want 2 and nothing on stdout\nstdout: %s\nstderr: %s", code, out, errOut)
	}
}

// seg init in an S-CORE tree writes a seg.toml that names the metamodel
// it found and nothing else, and the tree checks the same with it.
func TestScoreInit(t *testing.T) {
	dir := t.TempDir()
	mxWrite(t, dir, scoreTree)
	if code, out, errOut := runSeg(t, "init", dir); code != 0 || !strings.Contains(out, "for the S-CORE tree checked against docs/metamodel.yaml (found by docs/conf.py score_metamodel_yaml)") {
		t.Fatalf("seg init: exit %d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(filepath.Join(dir, "seg.toml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# seg reads this S-CORE tree's need types, links and rules from its\n# metamodel.yaml (docs/score.md).\n[needs]\nmetamodel = \"docs/metamodel.yaml\"\n"
	if string(data) != want {
		t.Errorf("seg.toml:\n%s\nwant:\n%s", data, want)
	}
	if code, out, _ := runSeg(t, "check", "--allow-empty", "--color", "never", dir); code != 1 || !strings.Contains(out, "[schema-option-pattern]") {
		t.Errorf("after seg init: exit %d, want 1\n%s", code, out)
	}
}

// Bazel's default output base: <output user root>/<md5 of the workspace
// path>, the output user root ~/.cache/bazel/_bazel_$USER; the module's
// metamodel is in its external folder.
func TestScoreBazelDefaultOutputBase(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("BAZEL_OUTPUT_BASE", "")
	t.Setenv("USER", "tester")
	files := map[string]string{
		"MODULE.bazel":     "module(name = \"one\")\nbazel_dep(name = \"score_docs_as_code\", version = \"2.0.0\")\n",
		"docs/conf.py":     "project = \"One\"\nextensions = [\"score_sphinx_bundle\"]\n",
		"docs/f/index.rst": scoreTree["docs/f/index.rst"],
	}
	mxWrite(t, dir, files)
	if code, _, errOut := runSeg(t, "check", dir); code != 2 || !strings.Contains(errOut, "Bazel output base") {
		t.Fatalf("before the build: exit %d, want 2\n%s", code, errOut)
	}
	abs, _ := filepath.Abs(dir)
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	sum := md5.Sum([]byte(abs))
	user := "tester"
	if u, ok := currentUser(); ok {
		user = u
	}
	base := filepath.Join(home, ".cache", "bazel", "_bazel_"+user, hex.EncodeToString(sum[:]))
	mxWrite(t, base, map[string]string{"external/score_docs_as_code+/src/extensions/score_metamodel/metamodel.yaml": scoreTree["docs/metamodel.yaml"]})
	code, out, errOut := runSeg(t, "check", "--allow-empty", "--color", "never", dir)
	if code != 1 || !strings.Contains(out, "[schema-option-pattern]") {
		t.Errorf("after the build: exit %d, want 1\n%s%s", code, out, errOut)
	}
}

// currentUser is the user name Bazel puts in its output user root.
func currentUser() (string, bool) {
	u, err := user.Current()
	if err != nil {
		return "", false
	}
	return u.Username, u.Username != ""
}

// The last places: the output base the root's bazel-out link points into,
// and, in docs-as-code's own repository, its own metamodel.
func TestScoreOtherPlaces(t *testing.T) {
	t.Setenv("BAZEL_OUTPUT_BASE", "")
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", "")
	dir, base := t.TempDir(), t.TempDir()
	mxWrite(t, dir, map[string]string{
		"MODULE.bazel":     "bazel_dep(name = \"score_docs_as_code\", version = \"2.0.0\")\n",
		"docs/conf.py":     "extensions = [\"score_sphinx_bundle\"]\n",
		"docs/f/index.rst": scoreTree["docs/f/index.rst"],
	})
	mxWrite(t, base, map[string]string{
		"external/score_docs_as_code+/src/extensions/score_metamodel/metamodel.yaml": scoreTree["docs/metamodel.yaml"],
		"execroot/_main/bazel-out/.keep":                                             "",
	})
	if err := os.Symlink(filepath.Join(base, "execroot", "_main", "bazel-out"), filepath.Join(dir, "bazel-out")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if code, out, errOut := runSeg(t, "check", "--allow-empty", "--color", "never", dir); code != 1 || !strings.Contains(out, "[schema-option-pattern]") {
		t.Errorf("through bazel-out: exit %d, want 1\n%s%s", code, out, errOut)
	}

	own := t.TempDir()
	mxWrite(t, own, map[string]string{
		"docs/conf.py":     "extensions = [\"score_metamodel\"]\n",
		"docs/f/index.rst": scoreTree["docs/f/index.rst"],
		"src/extensions/score_metamodel/metamodel.yaml": scoreTree["docs/metamodel.yaml"],
	})
	if code, out, errOut := runSeg(t, "check", "--allow-empty", "--color", "never", own); code != 1 || !strings.Contains(out, "[schema-option-pattern]") {
		t.Errorf("docs-as-code's own: exit %d, want 1\n%s%s", code, out, errOut)
	}
}
