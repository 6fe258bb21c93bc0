//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seg-trace/seg/bench/gen"
)

// seg runs under a memory limit: with an address-space or data limit
// anywhere from 0.5 to 3 GB (ulimit -v, prlimit --as/--data), the built
// binary gives the output and exit code it gives without one, wherever
// the Go runtime can start at all. (Issue 13: a huge-pages setup that
// reserved 2 GB at start killed seg under every such limit from 0.8 to
// 2.5 GB; nothing seg does for speed may make it fail.)
func TestMemoryLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds seg and runs it under 28 limits")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit (util-linux)")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "seg")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tr, err := gen.New(gen.Options{N: 1250, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	generated := t.TempDir()
	if _, err := gen.WriteDir(tr, generated, gen.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	type result struct {
		code           int
		stdout, stderr string
	}
	run := func(limit string, args ...string) (result, error) {
		cmd := exec.Command(bin, args...)
		if limit != "" {
			cmd = exec.Command(prlimit, append([]string{limit, bin}, args...)...)
		}
		cmd.Env = append(os.Environ(), "SEG_CACHE_DIR=off")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		r := result{0, out.String(), errb.String()}
		if ee, ok := err.(*exec.ExitError); ok {
			r.code, err = ee.ExitCode(), nil
		}
		return r, err
	}
	var ran atomic.Int32
	t.Run("limits", func(t *testing.T) {
		for _, root := range []string{"../../examples/brake", generated} {
			tree := filepath.Base(root)
			if root == generated {
				tree = "generated-1250"
			}
			args := []string{"check", "--format", "json", "--at", "2026-11-29", root}
			want, err := run("", args...)
			if err != nil || want.code >= 2 {
				t.Fatalf("%s without a limit: exit %d, %v\n%s", tree, want.code, err, want.stderr)
			}
			for _, which := range []string{"--as", "--data"} {
				for _, gb := range []float64{0.5, 0.8, 1, 1.5, 2, 2.5, 3} {
					limit := fmt.Sprintf("%s=%d", which, int64(gb*(1<<30)))
					t.Run(fmt.Sprintf("%s/%s=%.1fGB", tree, which, gb), func(t *testing.T) {
						t.Parallel()
						if v, err := run(limit, "version"); err != nil || v.code != 0 {
							first, _, _ := strings.Cut(v.stderr, "\n")
							t.Skipf("the Go runtime cannot start under this limit: %s", first)
						}
						got, err := run(limit, args...)
						if err != nil {
							t.Fatal(err)
						}
						if got != want {
							t.Errorf("under the limit: exit %d, stderr:\n%.2000s\nwithout: exit %d, stderr:\n%.2000s\n(stdout the same: %t)",
								got.code, got.stderr, want.code, want.stderr, got.stdout == want.stdout)
						}
						ran.Add(1)
					})
				}
			}
		}
	})
	if ran.Load() < 20 {
		t.Errorf("only %d of 28 limits let seg run at all", ran.Load())
	}
}
