package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The adoption path on a history the test writes (docs/adopt.md): a tree
// adopted without seg.toml, then configured; a lost edge that leaves its
// requirement's status as it was; a regression; a coverage measure that
// fell; a fix. Each step is seg diff between two commits (or the work
// tree), with its exact exit code.
func TestDiffAdoptionPath(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(repo, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) {
		t.Helper()
		gitRun(t, repo, "add", "-A")
		gitRun(t, repo, "commit", "-q", "-m", msg)
	}
	req := `Requirements
============

.. hlr:: Pressure follows the pedal
   :id: HLR-1

.. hlr:: Loop period
   :id: HLR-2

.. hlr:: Fault report
   :id: HLR-3
`
	tests := `Tests
=====

.. tspec:: Pedal map
   :id: TS-1
   :verifies: HLR-1

.. tspec:: Loop timing
   :id: TS-2
   :verifies: HLR-2

.. tspec:: Fault
   :id: TS-3
   :verifies: HLR-3

.. impl:: Controller
   :id: IMPL-1
   :implements: HLR-1, HLR-2, HLR-3

.. outcome:: Pedal map run
   :id: OUT-1
   :confirms: TS-1
   :witnesses: IMPL-1
   :result: passed

.. outcome:: Fault run
   :id: OUT-3
   :confirms: TS-3
   :witnesses: IMPL-1
   :result: passed
`
	// The adoption commit: no seg.toml, so hlr and tspec are nobody's.
	write("docs/req.rst", req)
	write("docs/tests.rst", tests)
	commit("adopt")
	// The configuration: HLR-1 and HLR-3 satisfied, HLR-2 unproven (TS-2
	// has no outcome).
	write("seg.toml", "[directives]\nhlr = \"requirement\"\ntspec = \"test\"\n")
	commit("configure")

	diffRun := func(want int, args ...string) string {
		t.Helper()
		code, out, stderr := run(append([]string{"diff", "--at", mxAt}, append(args, repo)...)...)
		if code != want {
			t.Fatalf("seg diff %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, out, stderr)
		}
		return out
	}
	has := func(out string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Errorf("the diff lacks %q:\n%s", w, out)
			}
		}
	}

	// The base has no seg.toml: it is read with the head's, and says so
	// once; nothing changed.
	out := diffRun(0, "--base", "HEAD~1", "--head", "HEAD")
	has(out, "seg diff: no requirement got worse\n", "note: the base HEAD~1 has no seg configuration (no seg.toml, no sphinx-needs project file): it is read with the head's (seg.toml)")
	if strings.Count(out, "note:") != 1 {
		t.Errorf("the note is said %d times:\n%s", strings.Count(out, "note:"), out)
	}
	// With its own (none), every requirement is added; added unproven and
	// satisfied requirements do not fail, and no measure exists at a base
	// without requirements.
	out = diffRun(0, "--base", "HEAD~1", "--head", "HEAD", "--base-config", "base")
	has(out, "requirements added (3):", "read with seg's defaults, as --base-config base says")
	out = diffRun(0, "--base", "HEAD~1", "--head", "HEAD", "--base-config", "head", "--format", "json")
	has(out, `"config": "head"`, `"worse": 0`, `"lost_requirements": 0`)

	// A check document of the configured tree, for the files form.
	_, baseDoc, _ := run("check", "--format", "json", "--evidence", "--at", mxAt, repo)
	baseFile := filepath.Join(t.TempDir(), "base.json")
	os.WriteFile(baseFile, []byte(baseDoc), 0o644)

	// The lost edge: TS-2 no longer verifies HLR-2, which is unproven
	// before and after.
	write("docs/tests.rst", strings.Replace(tests, "   :id: TS-2\n   :verifies: HLR-2\n", "   :id: TS-2\n", 1))
	commit("drop a link")
	out = diffRun(1, "--base", "HEAD~1", "--head", "HEAD")
	has(out, "seg diff: 1 requirement lost evidence\n",
		"lost evidence (1):\n  HLR-2  verifies TS-2: link removed  docs/tests.rst:10 → docs/req.rst:7  Loop period\n")
	if strings.Contains(out, "got worse (") || strings.Contains(out, "status changes") {
		t.Errorf("a status changed:\n%s", out)
	}
	// The same from two seg check documents.
	_, headDoc, _ := run("check", "--format", "json", "--evidence", "--at", mxAt, repo)
	headFile := filepath.Join(t.TempDir(), "head.json")
	os.WriteFile(headFile, []byte(headDoc), 0o644)
	code, out, stderr := run("diff", baseFile, headFile)
	if code != 1 {
		t.Fatalf("files: exit %d, want 1\n%s%s", code, out, stderr)
	}
	has(out, "HLR-2  verifies TS-2: not counted  docs/tests.rst:10 → docs/req.rst:7  Loop period")

	// A regression: OUT-1 fails. HLR-1 got worse, its outcome no longer
	// counts, and the satisfied share fell.
	write("docs/tests.rst", strings.Replace(strings.Replace(tests, "   :id: TS-2\n   :verifies: HLR-2\n", "   :id: TS-2\n", 1),
		":id: OUT-1\n   :confirms: TS-1\n   :witnesses: IMPL-1\n   :result: passed", ":id: OUT-1\n   :confirms: TS-1\n   :witnesses: IMPL-1\n   :result: failed", 1))
	commit("regress")
	out = diffRun(1, "--base", "HEAD~1", "--head", "HEAD")
	has(out, "seg diff: 1 requirement got worse, 1 requirement lost evidence, 1 coverage measure fell\n",
		"HLR-1  satisfied → failing", "HLR-1  outcome OUT-1 (of test TS-1): not counted  docs/tests.rst:19 → docs/tests.rst:19",
		"coverage fell (1):\n  satisfied  2/3 (66.7%) → 1/3 (33.3%)\n")

	// A fallen measure alone: a new unproven requirement in the work
	// tree, nothing worse, nothing lost.
	write("docs/more.rst", ".. hlr:: Later\n   :id: HLR-4\n")
	out = diffRun(1, "--base", "HEAD", "--format", "json")
	has(out, `"worse": 0`, `"lost_requirements": 0`, `"fell": 1`)
	os.Remove(filepath.Join(repo, "docs", "more.rst"))

	// The fix: the link and the passing outcome back; better than the
	// base, exit 0.
	write("docs/tests.rst", tests)
	commit("fix")
	out = diffRun(0, "--base", "HEAD~1", "--head", "HEAD")
	has(out, "seg diff: no requirement got worse\n")

	// Refusals: a --base-config seg does not know; --base-config with files.
	if code, _, stderr := run("diff", "--base", "HEAD", "--base-config", "mine", repo); code != 2 || !strings.Contains(stderr, "want head or base") {
		t.Errorf("--base-config mine: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run("diff", "--base-config", "head", baseFile, headFile); code != 2 || !strings.Contains(stderr, "go with --base") {
		t.Errorf("--base-config with files: exit %d, %s", code, stderr)
	}
}
