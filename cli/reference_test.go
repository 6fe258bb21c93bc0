package cli

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
)

// Random trees, written as RST and checked through the whole command
// (parser, graph, evaluator, JSON report), agree with the naive reference
// evaluator on every verdict.
func TestRandomTreesEndToEnd(t *testing.T) {
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for seed := range uint64(500) {
		r := rand.New(rand.NewPCG(seed, 11))
		tr := segtest.RandomTree(r)
		dir := t.TempDir()
		files := map[string]string{"tree.rst": tr.RST()}
		if seed%2 == 1 {
			files = tr.RSTFiles(r, 4)
		}
		for name, text := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, out, stderr := run("check", "--format", "json", "--at", "2026-11-29", "--no-cache", dir)
		var doc struct {
			Requirements []struct {
				ID      string `json:"id"`
				Verdict string `json:"verdict"`
			} `json:"requirements"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("seed %d: %v\n%s%s", seed, err, out, stderr)
		}
		want := segtest.Naive(tr, at)
		reqs := 0
		for _, n := range tr.Nodes {
			if n.Kind == parser.Requirement {
				reqs++
			}
		}
		if len(doc.Requirements) != reqs {
			t.Fatalf("seed %d: %d requirements reported, the tree has %d", seed, len(doc.Requirements), reqs)
		}
		for _, r := range doc.Requirements {
			if got := r.Verdict == "satisfied"; got != want[r.ID] {
				t.Fatalf("seed %d: %s is %s, the reference says satisfied=%v\n%s", seed, r.ID, r.Verdict, want[r.ID], tr.RST())
			}
		}
	}
}
