package lsp_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNeovim runs a real editor against seg lsp: Neovim, headless, with
// its built-in LSP client, driven by testdata/neovim.lua (open a file,
// wait for diagnostics, go to a definition, find references, hover (a
// status, a revision, a stale link), complete an ID, apply code actions
// (a "did you mean", accepting a stale link into seg.lock), read a status (a
// code lens, an information diagnostic in the open document), in a source
// file with a code tag (a diagnostic, go to definition), shut down). The test fails when
// any step does. Without Neovim it skips; SEG_REQUIRE_NEOVIM=1 (set by
// .ci/run) makes that a failure.
func TestNeovim(t *testing.T) {
	t.Parallel()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		msg := "no nvim on PATH: apt-get install neovim to run the editor test"
		if v := os.Getenv("SEG_REQUIRE_NEOVIM"); v != "" && v != "0" {
			t.Fatal(msg + " (SEG_REQUIRE_NEOVIM is set)")
		}
		t.Skip(msg)
	}
	if testing.Short() {
		t.Skip("builds seg and starts Neovim")
	}
	bin := filepath.Join(t.TempDir(), "seg")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/seg-trace/seg/cmd/seg").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := writeTree(t, fixture)
	// A pin of REQ-2's :refines: to a revision SYS-1 never had: a stale
	// link, which the script accepts.
	writeFiles(t, root, map[string]string{"seg.lock": "REQ-2 refines SYS-1 0000000000000000\n",
		// A source file whose code tag implements REQ-1.
		"seg.toml": "[code]\npaths = [\"src/**\"]\n", "src/brake.py": "def brake():\n    # req-Id: REQ-1\n    pass\n"})
	before := treeSum(t, root)
	script, err := filepath.Abs("testdata/neovim.lua")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "SEG_BIN="+bin, "SEG_ROOT="+root,
		// Keep Neovim's own state (logs, LSP log) out of the user's home.
		"HOME="+home, "XDG_STATE_HOME="+home, "XDG_CACHE_HOME="+home, "XDG_DATA_HOME="+home, "XDG_CONFIG_HOME="+home)
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	t.Logf("neovim output:\n%s%s", stdout.String(), stderr.String())
	if err != nil || ctx.Err() != nil {
		t.Fatalf("neovim: %v", err)
	}
	if !strings.Contains(stdout.String()+stderr.String(), "neovim: all steps passed") {
		t.Fatal("the script did not reach its end")
	}
	if after := treeSum(t, root); after != before {
		t.Error("the editor session changed the tree on disk")
	}
}
