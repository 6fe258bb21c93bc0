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

// seg never fails because of an optimisation: under an address-space or
// data limit anywhere from 0.5 to 3 GB (ulimit -v, prlimit --as/--data),
// the built binary gives the same output and exit code with huge pages
// (internal/hugepages) as with SEG_HUGEPAGES=off. Before the limits were
// checked, every size here from 0.8 to 3 GB of address space and up to 2 GB
// of data died with "fatal error: out of memory".
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
	run := func(limit, root string, off bool) (result, error) {
		cmd := exec.Command(prlimit, limit, bin, "check", "--format", "json", "--at", "2026-11-29", root)
		cmd.Env = append(os.Environ(), "SEG_CACHE_DIR=off", "SEG_HUGEPAGES=")
		if off {
			cmd.Env = append(cmd.Env, "SEG_HUGEPAGES=off")
		}
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
			for _, which := range []string{"--as", "--data"} {
				for _, gb := range []float64{0.5, 0.8, 1, 1.5, 2, 2.5, 3} {
					limit := fmt.Sprintf("%s=%d", which, int64(gb*(1<<30)))
					name := fmt.Sprintf("%s/%s=%.1fGB", tree, which, gb)
					t.Run(name, func(t *testing.T) {
						t.Parallel()
						want, err := run(limit, root, true)
						if err != nil {
							t.Fatal(err)
						}
						if want.code >= 2 {
							// The Go runtime itself cannot start.
							first, _, _ := strings.Cut(want.stderr, "\n")
							t.Skipf("fails without huge pages too: exit %d: %s", want.code, first)
						}
						got, err := run(limit, root, false)
						if err != nil {
							t.Fatal(err)
						}
						if got != want {
							t.Errorf("with huge pages: exit %d, stderr:\n%.2000s\nwithout: exit %d, stderr:\n%.2000s\n(stdout the same: %t)",
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
