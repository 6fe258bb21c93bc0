package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gitRun runs git in dir for a test, with a fixed identity.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=seg test", "-c", "user.email=seg@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// copyTree copies the files under src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// diffRepo makes a repository whose tree root is the folder "trace" (not
// the repository's top): a base commit with report/testdata/diff/base,
// and a head commit with .../head.
func diffRepo(t *testing.T) (repo, root string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo = t.TempDir()
	root = filepath.Join(repo, "trace")
	gitRun(t, repo, "init", "-q")
	copyTree(t, "../report/testdata/diff/base", root)
	os.WriteFile(filepath.Join(repo, "README"), []byte("outside the root\n"), 0o644)
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	os.RemoveAll(filepath.Join(root, "docs"))
	copyTree(t, "../report/testdata/diff/head", root)
	// A folder only the head has.
	os.MkdirAll(filepath.Join(repo, "later"), 0o755)
	os.WriteFile(filepath.Join(repo, "later", "a.rst"), []byte(".. sreq:: Later\n   :id: L-1\n"), 0o644)
	gitRun(t, repo, "add", "-A")
	gitRun(t, repo, "commit", "-q", "-m", "head")
	return repo, root
}

type diffDoc struct {
	Worse        int
	Requirements json.RawMessage
	Diagnostics  json.RawMessage
	Links        json.RawMessage
	Nodes        struct{ Added, Removed []struct{ ID string } }
	Compared     struct {
		Diagnostics, Links bool
		Text               string
	}
	Base, Head struct {
		Label, Commit, At string
	}
}

func parseDiff(t *testing.T, out string) diffDoc {
	t.Helper()
	var d diffDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return d
}

// seg diff --base REV --head REV evaluates both trees from git objects,
// and says what seg diff says of the JSON documents seg check and seg
// graph write for the two trees checked out.
func TestDiffGitRevisions(t *testing.T) {
	repo, root := diffRepo(t)
	code, out, stderr := run("diff", "--base", "HEAD~1", "--head", "HEAD", "--format", "json", "--at", mxAt, root)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (requirements got worse): %s", code, stderr)
	}
	git := parseDiff(t, out)
	if git.Worse != 4 || git.Base.Label != "HEAD~1" || len(git.Base.Commit) != 40 || git.Head.Label != "HEAD" || git.Compared.Text != "revision" {
		t.Errorf("diff: worse %d, base %+v, head %+v, compared %+v", git.Worse, git.Base, git.Head, git.Compared)
	}
	if commit := strings.TrimSpace(gitRun(t, repo, "rev-parse", "HEAD~1")); git.Base.Commit != commit {
		t.Errorf("base commit %s, want %s", git.Base.Commit, commit)
	}

	// The same trees as files: seg check and seg graph JSON of each.
	dir := t.TempDir()
	docs := map[string]string{}
	for _, side := range []string{"base", "head"} {
		for _, cmd := range []string{"check", "graph"} {
			_, out, _ := run(cmd, "--format", "json", "--at", mxAt, "../report/testdata/diff/"+side)
			p := filepath.Join(dir, side+"-"+cmd+".json")
			os.WriteFile(p, []byte(out), 0o644)
			docs[side+"-"+cmd] = p
		}
	}
	code, out, stderr = run("diff", "--format", "json", "--base-graph", docs["base-graph"], "--head-graph", docs["head-graph"], docs["base-check"], docs["head-check"])
	if code != 1 {
		t.Fatalf("files: exit %d: %s", code, stderr)
	}
	files := parseDiff(t, out)
	for _, part := range []struct {
		name      string
		git, file json.RawMessage
	}{{"requirements", git.Requirements, files.Requirements}, {"diagnostics", git.Diagnostics, files.Diagnostics}, {"links", git.Links, files.Links}} {
		if string(part.git) != string(part.file) {
			t.Errorf("%s differ between the git revisions and the files:\n%s", part.name, cmp.Diff(string(part.git), string(part.file)))
		}
	}
	if !cmp.Equal(git.Nodes, files.Nodes) || files.Worse != git.Worse {
		t.Errorf("nodes added/removed or worse differ: %+v / %+v", git.Nodes, files.Nodes)
	}

	// Two check documents alone: the same regressions, no links.
	code, out, _ = run("diff", "--format", "json", docs["base-check"], docs["head-check"])
	checkOnly := parseDiff(t, out)
	if code != 1 || string(checkOnly.Requirements) != string(git.Requirements) || checkOnly.Compared.Links {
		t.Errorf("check documents alone: exit %d, compared %+v", code, checkOnly.Compared)
	}

	// A revision against itself: nothing changed, exit 0.
	code, out, stderr = run("diff", "--base", "HEAD", "--head", "HEAD", root)
	if code != 0 || !strings.HasPrefix(out, "seg diff: no requirement got worse\n") {
		t.Errorf("HEAD against HEAD: exit %d\n%s%s", code, out, stderr)
	}
}

// Against the work tree, seg diff sees uncommitted changes and changes
// nothing: not the files, not the index, not HEAD.
func TestDiffGitWorkTreeUntouched(t *testing.T) {
	repo, root := diffRepo(t)
	// An uncommitted fix: OUT-1 passes again.
	ev := filepath.Join(root, "docs", "evidence.rst")
	data, _ := os.ReadFile(ev)
	fixed := strings.Replace(string(data), ":id: OUT-1\n   :confirms: TS-1\n   :witnesses: IMPL-1\n   :result: failed", ":id: OUT-1\n   :confirms: TS-1\n   :witnesses: IMPL-1\n   :result: passed", 1)
	if fixed == string(data) {
		t.Fatal("fixture changed: OUT-1 not found")
	}
	os.WriteFile(ev, []byte(fixed), 0o644)
	os.WriteFile(filepath.Join(root, "docs", "untracked.rst"), []byte(".. sreq:: Untracked\n   :id: SREQ-U\n"), 0o644)
	gitRun(t, repo, "add", "docs/..", "trace/docs/untracked.rst")
	// seg's temporary tree goes under a folder of the test's own.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	status := gitRun(t, repo, "status", "--porcelain=v2", "--branch")
	stash := gitRun(t, repo, "stash", "list")
	before := hashTree(t, repo)

	code, out, stderr := run("diff", "--base", "HEAD", "--format", "markdown", "--at", mxAt, root)
	if code != 0 {
		t.Errorf("exit %d, want 0 (the work tree fixes SREQ-1): %s\n%s", code, stderr, out)
	}
	for _, want := range []string{"seg trace diff: no requirement got worse", "| `SREQ-1` Pressure follows the pedal | failing | satisfied |", "`SREQ-U` Untracked", "Base `HEAD ("} {
		if !strings.Contains(out, want) {
			t.Errorf("the diff lacks %q:\n%s", want, out)
		}
	}
	if after := hashTree(t, repo); !cmp.Equal(before, after) {
		t.Errorf("seg diff changed the repository:\n%s", cmp.Diff(before, after))
	}
	if s := gitRun(t, repo, "status", "--porcelain=v2", "--branch"); s != status {
		t.Errorf("git status changed:\n%s\nnow:\n%s", status, s)
	}
	if s := gitRun(t, repo, "stash", "list"); s != stash {
		t.Errorf("stash changed: %s", s)
	}
	// No temporary tree is left behind.
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left behind in the temporary folder: %v", left)
	}
}

func TestDiffTrouble(t *testing.T) {
	repo, root := diffRepo(t)
	notRepo := t.TempDir()
	check := filepath.Join(t.TempDir(), "c.json")
	_, out, _ := run("check", "--format", "json", "--at", mxAt, "../examples/brake")
	os.WriteFile(check, []byte(out), 0o644)
	graph := filepath.Join(t.TempDir(), "g.json")
	_, out, _ = run("graph", "--format", "json", "--at", "2026-11-30", "../examples/brake")
	os.WriteFile(graph, []byte(out), 0o644)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "seg-matrix/1"}`), 0o644)
	cases := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no such revision", []string{"diff", "--base", "no-such-branch", root}, `"no-such-branch" names no commit`},
		{"option as revision", []string{"diff", "--base", "--output=x", root}, "names no commit"},
		{"not a repository", []string{"diff", "--base", "HEAD", notRepo}, "git rev-parse"},
		{"root missing at the base", []string{"diff", "--base", "HEAD~1", filepath.Join(repo, "later")}, "does not exist at"},
		{"missing root", []string{"diff", "--base", "HEAD", filepath.Join(repo, "nope")}, "cannot read root"},
		{"one file", []string{"diff", check}, "want two"},
		{"three files", []string{"diff", check, check, check}, "want two"},
		{"head without base", []string{"diff", "--head", "HEAD", root}, "--head goes with --base"},
		{"graph with base", []string{"diff", "--base", "HEAD", "--base-graph", graph, root}, "go with two files"},
		{"missing file", []string{"diff", check, filepath.Join(notRepo, "x.json")}, "cannot read"},
		{"not seg's", []string{"diff", check, bad}, `schema "seg-matrix/1" is not one seg diff reads`},
		{"not JSON", []string{"diff", check, "../examples/brake/docs/requirements/system.rst"}, "not a JSON document"},
		{"graph of another date", []string{"diff", "--base-graph", graph, check, check}, "give documents of one run"},
		{"check as graph", []string{"diff", "--base-graph", check, check, check}, "want a seg-check/1 and a seg-graph/1"},
		{"results with files", []string{"diff", "--results", "x.xml", check, check}, "go with --base"},
		{"bad format", []string{"diff", "--format", "html", check, check}, "unknown --format"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := run(c.args...)
			if code != 2 || !strings.Contains(stderr, c.stderr) || out != "" {
				t.Errorf("seg %s: exit %d, stderr %q, want 2 and %q (stdout %q)", strings.Join(c.args, " "), code, stderr, c.stderr, out)
			}
		})
	}
}
