package gitrev

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every git seg runs (Resolve, Extract, Objects) reads the repository
// that holds its folder, whatever GIT_DIR or GIT_WORK_TREE the caller
// (a git hook) left set, takes no optional lock and speaks in the C
// locale.
func TestCommandEnvironment(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	mine, other := t.TempDir(), t.TempDir()
	for _, repo := range []string{mine, other} {
		git1(t, repo, "init", "-q")
		os.WriteFile(filepath.Join(repo, "f.rst"), []byte(repo), 0o644)
		git1(t, repo, "add", "-A")
		git1(t, repo, "commit", "-q", "-m", "one")
	}
	head := strings.TrimSpace(git1(t, mine, "rev-parse", "HEAD"))
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(other, ".git", "index"))
	t.Setenv("LC_ALL", "de_DE.UTF-8")
	r, err := Resolve(mine, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if r.Commit != head {
		t.Errorf("Resolve read commit %s, want %s of the repository the folder is in", r.Commit, head)
	}
	o, err := StartObjects(mine)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	data, ok, err := o.Read("HEAD:f.rst")
	if err != nil || !ok || string(data) != mine {
		t.Errorf("Objects read %q %v %v, want the file of the repository the folder is in", data, ok, err)
	}
	env := strings.Join(Command(mine, "status").Env, "\n")
	for _, want := range []string{"GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0"} {
		if !strings.Contains(env, want) {
			t.Errorf("environment lacks %s", want)
		}
	}
	if strings.Contains(env, "de_DE") || strings.Contains(env, "GIT_DIR=") {
		t.Errorf("environment keeps the caller's locale or GIT_DIR:\n%s", env)
	}
}
