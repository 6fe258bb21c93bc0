package gitrev

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func git1(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Extract writes the files of a subfolder as committed: bytes (CRLF kept,
// a file .gitattributes marks export-ignore included), names with spaces
// and non-ASCII letters, the executable bit, links; and nothing of the
// work tree's later changes.
func TestExtract(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	git1(t, repo, "init", "-q")
	files := map[string]string{
		"root/docs/a b/ü.rst":  ".. sreq:: X\r\n   :id: X-1\r\n",
		"root/seg.toml":        "exclude = []\n",
		"root/skip.rst":        "export-ignore does not apply\n",
		"root/.gitattributes":  "skip.rst export-ignore\n",
		"root/tools/run.sh":    "#!/bin/sh\n",
		"outside/secret.rst":   "not under the root\n",
		"root/docs/nested.rst": "",
	}
	for name, text := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(repo, "root", "tools", "run.sh"), 0o755)
	if runtime.GOOS != "windows" {
		os.Symlink("a b/ü.rst", filepath.Join(repo, "root", "docs", "link.rst"))
	}
	git1(t, repo, "add", "-A")
	git1(t, repo, "commit", "-q", "-m", "one")
	// Later work-tree changes are not the revision.
	os.WriteFile(filepath.Join(repo, "root", "seg.toml"), []byte("changed\n"), 0o644)

	r, err := Resolve(filepath.Join(repo, "root", "docs"), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if r.Prefix != "root/docs" || len(r.Commit) < 40 {
		t.Errorf("revision %+v", r)
	}
	r, err = Resolve(filepath.Join(repo, "root"), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := r.Extract(dst); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		rel, ok := strings.CutPrefix(name, "root/")
		got, err := os.ReadFile(filepath.Join(dst, filepath.FromSlash(rel)))
		if !ok {
			if err == nil {
				t.Errorf("%s outside the root was written", name)
			}
			continue
		}
		if err != nil || string(got) != text {
			t.Errorf("%s: %q, %v; want %q", rel, got, err, text)
		}
	}
	if info, err := os.Stat(filepath.Join(dst, "tools", "run.sh")); err != nil || info.Mode().Perm()&0o100 == 0 {
		t.Errorf("run.sh lost its executable bit: %v", err)
	}
	if runtime.GOOS != "windows" {
		if to, err := os.Readlink(filepath.Join(dst, "docs", "link.rst")); err != nil || to != "a b/ü.rst" {
			t.Errorf("link: %q, %v", to, err)
		}
	}

	if _, err := Resolve(repo, "nope"); err == nil || !strings.Contains(err.Error(), "names no commit") {
		t.Errorf("unknown revision: %v", err)
	}
	if _, err := Resolve(t.TempDir(), "HEAD"); err == nil {
		t.Error("a folder outside any repository resolved")
	}
	// A nonempty destination is refused file by file, never overwritten.
	if err := r.Extract(dst); err == nil {
		t.Error("extracting over existing files succeeded")
	}
}

func TestValidPath(t *testing.T) {
	for p, want := range map[string]bool{
		"a/b.rst": true, "ü/x y.rst": true, "": false, "/abs": false, "a/../b": false, "./a": false,
		"a//b": false, ".git/config": false, "x/.GIT/y": false, `a\b`: false, "..": false,
	} {
		if got := validPath(p); got != want {
			t.Errorf("validPath(%q) = %v", p, got)
		}
	}
}
