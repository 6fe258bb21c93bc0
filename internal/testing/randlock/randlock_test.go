package randlock

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/internal/testing/segtest"
)

// Lock writes what it promises the tests that use it: pins of the tree's
// links, some of them stale, and always a pin of a link the tree lacks
// and a line that is no pin, which seg check reports as such.
func TestLock(t *testing.T) {
	root := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	files := segtest.RandomTree(r).RSTFiles(r, 3)
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func() *check.Check {
		tr, err := check.Open(root, "")
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := tr.Run(check.Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := run()
	lock := Lock(rand.New(rand.NewPCG(3, 4)), c, 2)
	if err := os.WriteFile(filepath.Join(root, "seg.lock"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{}
	for _, d := range run().Diagnostics {
		codes[d.Code.Name]++
	}
	pins := strings.Count(lock, "\n") - 2
	if pins == 0 || codes["stale-link"] == 0 || codes["stale-link"] == pins {
		t.Errorf("%d pins, %d stale: want some of the tree's links pinned, some stale and some not\n%s", pins, codes["stale-link"], lock)
	}
	if codes["orphan-pin"] != 1 || codes["invalid-pin"] != 1 {
		t.Errorf("orphan-pin %d, invalid-pin %d: want one of each\n%s", codes["orphan-pin"], codes["invalid-pin"], lock)
	}
}
