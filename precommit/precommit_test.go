package precommit_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The docs tree every test starts from: two requirements, each verified,
// implemented and confirmed by a witnessed passing outcome, so seg check
// passes; and a file of plain prose that bears on nothing.
var cleanTree = map[string]string{
	"docs/requirements.rst": `Requirements
============

.. sreq:: Brake on demand
   :id: REQ-1

.. sreq:: Release on demand
   :id: REQ-2
`,
	"docs/tests.rst": `Tests
=====

.. test:: Brake test
   :id: TS-1
   :verifies: REQ-1

.. test:: Release test
   :id: TS-2
   :verifies: REQ-2
`,
	"docs/impl.rst": `.. impl:: Brake controller
   :id: IMPL-1
   :implements: REQ-1, REQ-2
`,
	"docs/results.rst": `.. outcome:: Brake run
   :id: OUT-1
   :confirms: TS-1
   :witnesses: IMPL-1
   :result: passed

.. outcome:: Release run
   :id: OUT-2
   :confirms: TS-2
   :witnesses: IMPL-1
   :result: passed
`,
	"docs/notes.rst": "Notes\n=====\n\nPlain prose, no seg directive.\n",
}

// legacy is a problem committed earlier past the hook (git commit -n): a
// test of a requirement that no longer exists.
const legacy = ".. test:: Legacy\n   :id: TS-OLD\n   :verifies: REQ-GONE\n"

var (
	buildOnce sync.Once
	segBin    string
	buildErr  error
	buildDir  string
)

// segBinary builds seg once per test run.
func segBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "seg-precommit-bin-")
		if buildErr != nil {
			return
		}
		segBin = filepath.Join(buildDir, "seg")
		if runtime.GOOS == "windows" {
			segBin += ".exe"
		}
		cmd := exec.Command("go", "build", "-o", segBin, "github.com/seg-trace/seg/cmd/seg")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out.String())
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return segBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

func writeTree(t *testing.T, dir string, tree map[string]string) {
	t.Helper()
	for p, content := range tree {
		writeFile(t, dir, p, content)
	}
}

func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func edit(t *testing.T, dir, rel, old, new string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not contain %q", rel, old)
	}
	writeFile(t, dir, rel, strings.Replace(string(data), old, new, 1))
}

// run runs a command in dir and returns its combined output and exit code.
func run(t *testing.T, dir string, env []string, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return out.String(), 0
}

// The blame rule of seg check ROOT FILE..., as the hook uses it, run on
// the built binary without pre-commit: what a change to the named files
// bears on fails the check, problems elsewhere do not, --blame all makes
// them fail.
func TestBlameRule(t *testing.T) {
	seg := segBinary(t)
	cases := []struct {
		name    string
		change  func(t *testing.T, dir string)
		args    []string
		code    int
		mention string
	}{
		{"clean tree", nil, []string{"docs/tests.rst"}, 0, ""},
		{"broken link in the touched file", func(t *testing.T, dir string) {
			edit(t, dir, "docs/tests.rst", ":verifies: REQ-1", ":verifies: REQ-01")
		}, []string{"docs/tests.rst"}, 1, `unresolved link "REQ-01"`},
		{"broken link elsewhere", func(t *testing.T, dir string) {
			writeFile(t, dir, "docs/legacy.rst", legacy)
		}, []string{"docs/notes.rst"}, 0, ""},
		{"broken link elsewhere, blame all", func(t *testing.T, dir string) {
			writeFile(t, dir, "docs/legacy.rst", legacy)
		}, []string{"--blame", "all", "docs/notes.rst"}, 1, `unresolved link "REQ-GONE"`},
		{"broken link elsewhere, --only", func(t *testing.T, dir string) {
			writeFile(t, dir, "docs/legacy.rst", legacy)
		}, []string{"--only", "docs/notes.rst"}, 0, ""},
		// The reason sits at the requirement (requirements.rst), but the
		// edge that went inactive is written in the touched file.
		{"suspect edge in the touched file", func(t *testing.T, dir string) {
			edit(t, dir, "docs/tests.rst", ":verifies: REQ-1", ":verifies: REQ-1 (suspect)")
		}, []string{"docs/tests.rst"}, 1, "REQ-1"},
		{"retired implements in the touched file", func(t *testing.T, dir string) {
			edit(t, dir, "docs/impl.rst", ":implements: REQ-1, REQ-2", ":implements: REQ-1, REQ-2 (retired)")
		}, []string{"docs/impl.rst"}, 1, "REQ-2"},
		// An outcome that no longer witnesses an implementation: the reason
		// points at the test (tests.rst); the evidence is in results.rst.
		{"unwitnessed outcome in the touched file", func(t *testing.T, dir string) {
			edit(t, dir, "docs/results.rst", "   :witnesses: IMPL-1\n   :result: passed\n\n", "   :result: passed\n\n")
		}, []string{"docs/results.rst"}, 1, "no-confirming-outcome"},
		{"failed outcome in the touched file", func(t *testing.T, dir string) {
			edit(t, dir, "docs/results.rst", ":result: passed", ":result: failed")
		}, []string{"docs/results.rst"}, 1, "outcome-failed"},
		// The duplicate is reported at the later definition (in
		// requirements.rst); the touched file holds the first, a related
		// place of that diagnostic.
		{"duplicate ID added in the touched file", func(t *testing.T, dir string) {
			writeFile(t, dir, "docs/notes.rst", ".. sreq:: Copy\n   :id: REQ-1\n")
		}, []string{"docs/notes.rst"}, 1, "duplicate-id"},
		{"failed outcome, but an unrelated file touched", func(t *testing.T, dir string) {
			edit(t, dir, "docs/results.rst", ":result: passed", ":result: failed")
		}, []string{"docs/notes.rst"}, 0, ""},
		// The outcomes of REQ-1 and REQ-2 witness the same implementation;
		// touching REQ-1's evidence does not blame REQ-2's failure.
		{"failed outcome of another requirement, evidence of one touched", func(t *testing.T, dir string) {
			release := strings.Index(cleanTree["docs/results.rst"], ".. outcome:: Release run")
			writeFile(t, dir, "docs/results.rst", cleanTree["docs/results.rst"][:release])
			writeFile(t, dir, "docs/results2.rst", strings.Replace(cleanTree["docs/results.rst"][release:], "passed", "failed", 1))
		}, []string{"docs/results.rst"}, 0, ""},
		{"failed outcome of another requirement, its file touched", func(t *testing.T, dir string) {
			writeFile(t, dir, "docs/results2.rst", ".. outcome:: Release run\n   :id: OUT-2B\n   :confirms: TS-2\n   :witnesses: IMPL-1\n   :result: failed\n")
		}, []string{"docs/results2.rst"}, 1, "REQ-2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, cleanTree)
			if tc.change != nil {
				tc.change(t, dir)
			}
			args := append([]string{"check", "--at", "2026-11-29", "--color", "never", "."}, tc.args...)
			out, code := run(t, dir, os.Environ(), seg, args...)
			if code != tc.code {
				t.Errorf("seg %s: exit %d, want %d\n%s", strings.Join(args, " "), code, tc.code, out)
			}
			if !strings.Contains(out, tc.mention) {
				t.Errorf("output does not mention %q:\n%s", tc.mention, out)
			}
			// Every format exits the same.
			for _, f := range []string{"json", "github", "sarif"} {
				if _, c := run(t, dir, os.Environ(), seg, append(args, "--format", f)...); c != code {
					t.Errorf("--format %s exits %d, text %d", f, c, code)
				}
			}
		})
	}
	// The root may be a folder under the working folder (the hook's entry
	// overridden to seg check docs): names are still taken relative to
	// the working folder, as pre-commit passes them.
	t.Run("root in a subfolder", func(t *testing.T) {
		dir := t.TempDir()
		writeTree(t, dir, cleanTree)
		writeFile(t, dir, "docs/legacy.rst", legacy)
		out, code := run(t, dir, os.Environ(), seg, "check", "--color", "never", "docs", "docs/tests.rst")
		if code != 0 {
			t.Errorf("unrelated file: exit %d, want 0\n%s", code, out)
		}
		out, code = run(t, dir, os.Environ(), seg, "check", "--color", "never", "docs", "docs/legacy.rst")
		if code != 1 || !strings.Contains(out, "legacy.rst:3:15: error: unresolved link") {
			t.Errorf("touched file: exit %d, want 1 with the diagnostic\n%s", code, out)
		}
	})
	// A name that matches no file seg reads is refused, not a pass with
	// nothing shown: a typo, a file outside the root, one that is not
	// .rst, one the config excludes.
	t.Run("names that match no file", func(t *testing.T) {
		dir := t.TempDir()
		writeTree(t, dir, cleanTree)
		writeFile(t, dir, "docs/legacy.rst", legacy)
		writeFile(t, dir, "README.md", "# readme\n")
		writeFile(t, dir, "docs/drafts/d.rst", ".. sreq:: Draft\n   :id: DRAFT-1\n")
		writeFile(t, dir, "docs/seg.toml", "exclude = [\"drafts/**\"]\n")
		for _, args := range [][]string{
			{".", "docs/typo.rst"},
			{"docs/typo.rst"},
			{"--only", "docs/typo.rst", "."},
			{".", "README.md"},
			{"docs", "README.md"},
			{"docs", "docs/drafts/d.rst"},
		} {
			args := append([]string{"check", "--color", "never"}, args...)
			out, code := run(t, dir, os.Environ(), seg, args...)
			if code != 2 || !strings.Contains(out, "seg check: ") {
				t.Errorf("seg %s: exit %d, want 2 with a message\n%s", strings.Join(args, " "), code, out)
			}
		}
	})
	t.Run("bad --blame", func(t *testing.T) {
		dir := t.TempDir()
		writeTree(t, dir, cleanTree)
		out, code := run(t, dir, os.Environ(), seg, "check", ".", "--blame", "some", "docs/notes.rst")
		if code != 2 || !strings.Contains(out, "blame") {
			t.Errorf("exit %d, want 2 naming the flag:\n%s", code, out)
		}
	})
}

// preCommit finds the pre-commit tool and git, or skips the test saying
// what to install; with SEG_REQUIRE_PRECOMMIT=1 (CI) it fails instead.
func preCommit(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"git", "pre-commit"} {
		if _, err := exec.LookPath(tool); err != nil {
			msg := fmt.Sprintf("%s not found: apt-get install pre-commit (Debian package; it brings git) to run the real pre-commit hook test", tool)
			if os.Getenv("SEG_REQUIRE_PRECOMMIT") == "1" {
				t.Fatal(msg + " (SEG_REQUIRE_PRECOMMIT=1)")
			}
			t.Skip(msg)
		}
	}
	p, _ := exec.LookPath("pre-commit")
	return p
}

// gitEnv isolates git and pre-commit from the user's configuration and
// caches.
func gitEnv(t *testing.T, extra ...string) []string {
	home := t.TempDir()
	env := []string{
		"HOME=" + home,
		"PRE_COMMIT_HOME=" + filepath.Join(home, "pre-commit-cache"),
		"GIT_CONFIG_GLOBAL=" + filepath.Join(home, "gitconfig"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
		"NO_COLOR=1", "TERM=dumb",
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "PATH", k == "TMPDIR", k == "LANG", k == "LC_ALL",
			strings.HasPrefix(k, "GO") && k != "GOFLAGS":
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// repo makes a git repository holding the clean docs tree and the given
// pre-commit config, with pre-commit installed as its git hook.
func repo(t *testing.T, env []string, config string) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, cleanTree)
	writeFile(t, dir, ".pre-commit-config.yaml", config)
	mustRun(t, dir, env, "git", "init", "-q", "-b", "main")
	mustRun(t, dir, env, "git", "config", "commit.gpgsign", "false")
	mustRun(t, dir, env, "pre-commit", "install")
	return dir
}

func mustRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, code := run(t, dir, env, name, args...)
	if code != 0 {
		t.Fatalf("%s %s: exit %d\n%s", name, strings.Join(args, " "), code, out)
	}
	return out
}

// commit stages everything and commits through the hook.
func commit(t *testing.T, dir string, env []string, msg string) (string, int) {
	t.Helper()
	mustRun(t, dir, env, "git", "add", "-A")
	return run(t, dir, env, "git", "commit", "-q", "-m", msg)
}

func wantCommit(t *testing.T, dir string, env []string, msg string, ok bool, mention ...string) {
	t.Helper()
	out, code := commit(t, dir, env, msg)
	if ok && code != 0 {
		t.Fatalf("commit %q was refused (exit %d):\n%s", msg, code, out)
	}
	if !ok && code == 0 {
		t.Fatalf("commit %q passed, want it refused:\n%s", msg, out)
	}
	for _, m := range mention {
		if !strings.Contains(out, m) {
			t.Errorf("commit %q: output does not mention %q:\n%s", msg, m, out)
		}
	}
}

// localHook turns the hook of the repository's .pre-commit-hooks.yaml into
// a repo: local hook with language: system and the built binary, so the
// manifest's own entry, args, files and pass_filenames are what runs.
// args, when not "", replace the manifest's, as args in a
// .pre-commit-config.yaml do.
func localHook(t *testing.T, seg string, args string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("repos:\n  - repo: local\n    hooks:\n")
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		switch {
		case strings.HasPrefix(line, "  language: "):
			line = "  language: system"
		case strings.HasPrefix(line, "  entry: seg "):
			line = "  entry: " + seg + " " + strings.TrimPrefix(line, "  entry: seg ")
			n++
		case strings.HasPrefix(line, "  minimum_pre_commit_version:"):
			continue
		case strings.HasPrefix(line, "  args:") && args != "":
			continue
		}
		b.WriteString("      " + line + "\n")
	}
	if n != 1 {
		t.Fatalf(".pre-commit-hooks.yaml: want one hook whose entry starts with seg, found %d:\n%s", n, data)
	}
	if args != "" {
		b.WriteString("        args: " + args + "\n")
	}
	return b.String()
}

// localHookRepo is a repository with the hook of .pre-commit-hooks.yaml as
// a local hook (localHook) and the clean tree committed through it; it
// returns the repository, its environment and the seg binary.
func localHookRepo(t *testing.T) (string, []string, string) {
	t.Helper()
	preCommit(t)
	seg := segBinary(t)
	env := gitEnv(t)
	dir := repo(t, env, localHook(t, seg, ""))
	wantCommit(t, dir, env, "clean docs", true)
	return dir, env, seg
}

// The real pre-commit tool, seg as a local hook built from this checkout:
// a clean commit passes, a commit that breaks a link is refused with seg's
// message, the fixed commit passes; a commit touching an unrelated file in
// a tree with a problem elsewhere passes, and is refused with --blame all.
func TestPreCommitLocalHook(t *testing.T) {
	dir, env, seg := localHookRepo(t)
	if out := mustRun(t, dir, env, "pre-commit", "run", "--all-files"); !strings.Contains(out, "Passed") {
		t.Errorf("pre-commit run --all-files does not say Passed:\n%s", out)
	}

	breakAndFix(t, dir, env)

	// A problem committed past the hook, then an unrelated change.
	writeFile(t, dir, "docs/legacy.rst", legacy)
	mustRun(t, dir, env, "git", "add", "-A")
	mustRun(t, dir, env, "git", "commit", "-q", "-n", "-m", "legacy test, past the hook")
	writeFile(t, dir, "docs/notes.rst", cleanTree["docs/notes.rst"]+"\nMore prose.\n")
	wantCommit(t, dir, env, "unrelated prose", true)

	// A commit that only deletes files: pre-commit passes no name for a
	// deleted file (git diff --diff-filter without D, then only names
	// that exist), so the hook has nothing to check and is skipped.
	writeFile(t, dir, "docs/old-notes.rst", "Old notes\n=========\n")
	mustRun(t, dir, env, "git", "add", "-A")
	mustRun(t, dir, env, "git", "commit", "-q", "-n", "-m", "old notes, past the hook")
	if err := os.Remove(filepath.Join(dir, "docs", "old-notes.rst")); err != nil {
		t.Fatal(err)
	}
	wantCommit(t, dir, env, "delete the old notes", true, "no files to check")
	// One file deleted, another changed: only the changed one is named.
	writeFile(t, dir, "docs/old-notes.rst", "Old notes\n=========\n")
	mustRun(t, dir, env, "git", "add", "-A")
	mustRun(t, dir, env, "git", "commit", "-q", "-n", "-m", "old notes again, past the hook")
	if err := os.Remove(filepath.Join(dir, "docs", "old-notes.rst")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "docs/notes.rst", cleanTree["docs/notes.rst"]+"\nOther prose.\n")
	wantCommit(t, dir, env, "delete the old notes, edit the notes", true, "Passed")

	// The same kind of change with --blame all is refused for the old
	// problem.
	writeFile(t, dir, ".pre-commit-config.yaml", localHook(t, seg, `[--fail-on, "errors,failing", --quiet, --blame, all]`))
	writeFile(t, dir, "docs/notes.rst", cleanTree["docs/notes.rst"]+"\nEven more prose.\n")
	wantCommit(t, dir, env, "unrelated prose, blame all", false, `unresolved link "REQ-GONE"`, "docs/legacy.rst")
}

// What the hook blocks, with its own arguments (--fail-on errors,failing
// --quiet): a commit adding a requirement that has no test yet (unproven)
// passes; one adding a broken link, or a failing outcome, is refused. The
// hook's output lists only what the staged files bear on, and not the
// satisfied requirements.
func TestPreCommitBlocksOnlyWhatIsBroken(t *testing.T) {
	dir, env, _ := localHookRepo(t)

	// 1. A requirement written before its test: unproven, shown, let through.
	writeFile(t, dir, "docs/requirements.rst", cleanTree["docs/requirements.rst"]+
		"\n.. sreq:: Hold on a slope\n   :id: REQ-3\n")
	out, code := commit(t, dir, env, "a requirement before its test")
	if code != 0 {
		t.Fatalf("the unproven requirement was refused (exit %d):\n%s", code, out)
	}
	// pre-commit shows a passing hook's output only with --verbose.
	verbose, code := run(t, dir, env, "pre-commit", "run", "--verbose", "--files", "docs/requirements.rst")
	if code != 0 {
		t.Errorf("pre-commit run on the committed file: exit %d", code)
	}
	for _, want := range []string{"REQ-3  unproven", "no-active-verifies", "3 requirements in the changed files: 2 satisfied, 0 failing, 1 unproven"} {
		if !strings.Contains(verbose, want) {
			t.Errorf("the hook's output does not show %q:\n%s", want, verbose)
		}
	}
	// --quiet: REQ-1 and REQ-2 (satisfied, also in the file) are not listed.
	if strings.Contains(verbose, "REQ-1 ") || strings.Contains(verbose, "REQ-2 ") {
		t.Errorf("the hook lists satisfied requirements:\n%s", verbose)
	}

	// 2. A broken link: refused.
	writeFile(t, dir, "docs/tests.rst", cleanTree["docs/tests.rst"]+
		"\n.. test:: Slope test\n   :id: TS-3\n   :verifies: REQ-03\n")
	wantCommit(t, dir, env, "a test with a broken link", false,
		`docs/tests.rst:14:15: error: unresolved link "REQ-03" (did you mean "REQ-3"?) [unresolved-link]`)
	writeFile(t, dir, "docs/tests.rst", cleanTree["docs/tests.rst"])

	// 3. A failing outcome: refused, for the requirement it makes failing.
	edit(t, dir, "docs/results.rst", "   :result: passed\n\n.. outcome:: Release run", "   :result: failed\n\n.. outcome:: Release run")
	wantCommit(t, dir, env, "a failing outcome", false, "REQ-1  failing", "outcome-failed",
		"2 requirements in the changed files: 1 satisfied, 1 failing, 0 unproven")
}

// The hook exactly as a docs repository uses it: repo: a git repository of
// seg (a temporary one made from this checkout, with its
// .pre-commit-hooks.yaml), rev: a commit, language: golang, so pre-commit
// builds seg with go install ./... in its own GOPATH. The build is
// offline, with the variables docs/precommit.md ("Offline") gives:
// GOMODCACHE naming this machine's module cache and GOPROXY=off; it
// skips when the module cache lacks a dependency. The hook's environment
// must hold seg and nothing else (bench/seggen builds only with a tag).
func TestPreCommitGolangHook(t *testing.T) {
	preCommit(t)
	if testing.Short() {
		t.Skip("-short: skips building seg through pre-commit's golang language")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not on PATH")
	}
	modcache := strings.TrimSpace(mustRun(t, ".", os.Environ(), "go", "env", "GOMODCACHE"))
	gocache := strings.TrimSpace(mustRun(t, ".", os.Environ(), "go", "env", "GOCACHE"))
	// The modules seg needs must be in the cache (go mod download fills it).
	if out, code := run(t, "..", append(os.Environ(), "GOPROXY=off"), "go", "list", "-deps", "./..."); code != 0 {
		t.Skipf("the module cache lacks a dependency of seg (run go mod download): %s", out)
	}
	// GOCACHE (the build cache) is not under GOPATH, so pre-commit does
	// not move it; it is given only to keep the build fast. So is
	// -trimpath: without it the cache keys of seg's packages hold the
	// folder pre-commit cloned seg into, a new temporary one every run,
	// and every run compiled all of seg again (14 s of this test's 21).
	env := gitEnv(t, "GOMODCACHE="+modcache, "GOPROXY=off", "GOTOOLCHAIN=local", "GOCACHE="+gocache, "GOFLAGS=-trimpath")

	segRepo := sourceRepo(t, env)
	rev := strings.TrimSpace(mustRun(t, segRepo, env, "git", "rev-parse", "HEAD"))
	config := fmt.Sprintf("repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: seg\n", segRepo, rev)
	dir := repo(t, env, config)

	wantCommit(t, dir, env, "clean docs", true)
	wantOnlySeg(t, env)
	breakAndFix(t, dir, env)
}

// wantOnlySeg checks that pre-commit's golang environments (under
// PRE_COMMIT_HOME) hold one command, seg: go install ./... in seg's
// repository builds nothing else.
func wantOnlySeg(t *testing.T, env []string) {
	t.Helper()
	home := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PRE_COMMIT_HOME="); ok {
			home = v
		}
	}
	bins, err := filepath.Glob(filepath.Join(home, "*", "golangenv-*", "bin"))
	if err != nil || len(bins) != 1 {
		t.Fatalf("want one golang hook environment under %s, found %q (%v)", home, bins, err)
	}
	ents, err := os.ReadDir(bins[0])
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	want := "seg"
	if runtime.GOOS == "windows" {
		want += ".exe"
	}
	if len(names) != 1 || names[0] != want {
		t.Errorf("the hook environment %s holds %q, want only %q", bins[0], names, want)
	}
}

// breakAndFix adds a test with a typo in its link and its outcome: the
// commit is refused with seg's diagnostic; with the typo fixed, the same
// commit passes.
func breakAndFix(t *testing.T, dir string, env []string) {
	t.Helper()
	writeFile(t, dir, "docs/tests.rst", cleanTree["docs/tests.rst"]+
		"\n.. test:: Brake test, cold\n   :id: TS-3\n   :verifies: REQ-01\n")
	writeFile(t, dir, "docs/results.rst", cleanTree["docs/results.rst"]+
		"\n.. outcome:: Cold run\n   :id: OUT-3\n   :confirms: TS-3\n   :witnesses: IMPL-1\n   :result: passed\n")
	wantCommit(t, dir, env, "a test with a broken link", false,
		`docs/tests.rst:14:15: error: unresolved link "REQ-01" (did you mean "REQ-1"?) [unresolved-link]`)
	edit(t, dir, "docs/tests.rst", ":verifies: REQ-01", ":verifies: REQ-1")
	wantCommit(t, dir, env, "the test with its link fixed", true)
	if out := mustRun(t, dir, env, "git", "log", "--format=%s"); !strings.Contains(out, "the test with its link fixed") {
		t.Errorf("the fixed commit is not in the log:\n%s", out)
	}
}

// sourceRepo makes a git repository of this checkout's sources (the files
// git tracks or would track, as they are now, so uncommitted work is
// tested too) and returns its path.
func sourceRepo(t *testing.T, env []string) string {
	t.Helper()
	top, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	if out, code := run(t, top, env, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"); code == 0 {
		files = strings.Split(strings.TrimRight(out, "\x00"), "\x00")
	} else {
		t.Skipf("%s is not a git checkout (%s); cannot make a seg repository for the hook", top, strings.TrimSpace(out))
	}
	for _, f := range files {
		src := filepath.Join(top, filepath.FromSlash(f))
		st, err := os.Lstat(src)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, f, string(data))
	}
	if _, err := os.Stat(filepath.Join(dir, ".pre-commit-hooks.yaml")); err != nil {
		t.Fatalf("the copy has no .pre-commit-hooks.yaml: %v", err)
	}
	mustRun(t, dir, env, "git", "init", "-q", "-b", "main")
	mustRun(t, dir, env, "git", "add", "-A")
	mustRun(t, dir, env, "git", "-c", "commit.gpgsign=false", "commit", "-q", "-n", "-m", "seg sources")
	return dir
}
