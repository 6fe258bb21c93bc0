package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readOnlyDir makes dir refuse new files until the test ends: by its
// mode, or (for root, whom modes do not stop) by the immutable flag; the
// test is skipped where neither is possible.
func readOnlyDir(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return
	}
	if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot make %s read-only as root: %v %s", dir, err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
}

// seg review --accept writes every file it rewrites (the link conditions
// in RST files, and seg.lock) whole or not at all: when one of them
// cannot be written, none is, and no temporary file is left.
func TestAcceptUnwritable(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"ubproject.toml": `[needs]
id_required = true
id_regex = "^[A-Z0-9_]{3,}$"
types = [{directive = "req", title = "Requirement", prefix = "REQ_"}]
extra_options = ["version"]
extra_links = [{option = "satisfies", incoming = "satisfied by", outgoing = "satisfies"}]
`,
		"seg.toml": "[needs.types]\nreq = \"requirement\"\n\n[needs.links]\nsatisfies = \"refines\"\n",
		"a.rst": `.. req:: Parent
   :id: REQ_P
   :version: 2

.. req:: Child
   :id: REQ_A
   :satisfies: REQ_P[version==1]
`,
		"locked/b.rst": `.. req:: Other child
   :id: REQ_B
   :satisfies: REQ_P[version==1]
`,
	}
	writeTree(t, root, files, []string{"ubproject.toml", "seg.toml", "a.rst", "locked/b.rst"})
	readOnlyDir(t, filepath.Join(root, "locked"))
	code, _, stdout, stderr := runStats("review", "--accept", "REQ_A,REQ_B", root)
	if code != exitTrouble || !strings.Contains(stderr, "cannot write") || !strings.Contains(stderr, "b.rst") {
		t.Errorf("exit %d, stderr %q, want 2 and cannot write b.rst", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing", stdout)
	}
	for _, name := range []string{"a.rst", "locked/b.rst"} {
		if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name))); err != nil || string(b) != files[name] {
			t.Errorf("%s changed: %q, %v", name, b, err)
		}
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if e.Name() == "seg.lock" || strings.HasSuffix(e.Name(), ".seg-tmp") {
			t.Errorf("%s left in the tree", e.Name())
		}
	}
	// With the folder writable again, both conditions are rewritten.
	exec.Command("chattr", "-i", filepath.Join(root, "locked")).Run()
	os.Chmod(filepath.Join(root, "locked"), 0o755)
	if code, _, stdout, stderr := runStats("review", "--accept", "REQ_A,REQ_B", root); code != exitOK {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	for _, name := range []string{"a.rst", "locked/b.rst"} {
		b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if want := strings.Replace(files[name], "REQ_P[version==1]", "REQ_P[version==2]", 1); string(b) != want {
			t.Errorf("%s after accepting: %q, want %q", name, b, want)
		}
	}
}
