package githubaction_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The action's "Install seg" step builds seg with go install into
// $RUNNER_TEMP/seg-action/bin. Every run of the action here has a
// temporary folder of its own, so every run linked seg again: a second
// or two each, most of this package's time. seedInstall builds seg once,
// with the step's own command, and puts a copy where the step installs
// it; the step still runs as written, and go install, finding the binary
// up to date (the same build ID), leaves it, or builds it again if it
// were not.
var installed struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

func TestMain(m *testing.M) {
	code := m.Run()
	if installed.dir != "" {
		os.RemoveAll(installed.dir)
	}
	os.Exit(code)
}

func seedInstall(t *testing.T, temp, top string) {
	t.Helper()
	installed.once.Do(func() {
		if installed.dir, installed.err = os.MkdirTemp("", "seg-action-bin-"); installed.err != nil {
			return
		}
		cmd := exec.Command("go", "install", "./cmd/seg")
		cmd.Dir = top
		cmd.Env = append(os.Environ(), "GOBIN="+installed.dir)
		installed.out, installed.err = cmd.CombinedOutput()
	})
	if installed.err != nil {
		t.Fatalf("go install ./cmd/seg: %v\n%s", installed.err, installed.out)
	}
	src := filepath.Join(installed.dir, exe("seg"))
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(temp, "seg-action", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, exe("seg")), b, 0o755); err != nil {
		t.Fatal(err)
	}
}

func exe(name string) string {
	if filepath.Separator == '\\' {
		return name + ".exe"
	}
	return name
}
