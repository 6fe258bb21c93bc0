package graph

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// bigTree has enough nodes for Build to work on every core, and every kind
// of link trouble: unresolved targets, wrong kinds, duplicate IDs,
// repeated entries, states.
func bigTree() *segtest.Tree { return treeOf(6000) }

// treeOf is bigTree with n nodes of each kind.
func treeOf(n int) *segtest.Tree {
	tr := &segtest.Tree{}
	for i := range n {
		parent := fmt.Sprintf("R-%d", i/10)
		if i%97 == 0 {
			parent = fmt.Sprintf("MISSING-%d", i)
		}
		tr.Req(fmt.Sprintf("R-%d", i), parent)
		verifies := fmt.Sprintf("R-%d, R-%d (suspect)", i, i/3)
		if i%89 == 0 {
			verifies += fmt.Sprintf(", T-%d", i+1) // a test is the wrong kind
		}
		if i%83 == 0 {
			verifies += fmt.Sprintf(", R-%d", i) // listed twice
		}
		tr.Test(fmt.Sprintf("T-%d", i), verifies)
		tr.Impl(fmt.Sprintf("I-%d", i), fmt.Sprintf("R-%d (retired), R-%d", i, i+1))
		tr.Outcome(fmt.Sprintf("O-%d", i), fmt.Sprintf("T-%d", i), fmt.Sprintf("I-%d", i), []string{"passed", "failed", "skipped"}[i%3])
		if i%101 == 0 {
			tr.Req(fmt.Sprintf("R-%d", i), "") // a duplicate ID
		}
	}
	return tr
}

// A build on every core is the build on one: the same nodes, edges, open
// links and diagnostics, whatever the order of the input.
func TestParallelBuildIsSequentialBuild(t *testing.T) {
	tr := bigTree()
	if len(tr.Nodes) < 4*parallelChunk {
		t.Fatalf("only %d nodes: the build would not split", len(tr.Nodes))
	}
	opts := graphOpts
	defer func(c int) { parallelChunk = c }(parallelChunk)
	parallelChunk = 1 << 30
	seq, seqDiags := Build(tr.FileSet(), tr.Files(), nil, nil)
	parallelChunk = 64
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 3 {
		nodes := append([]parser.Node(nil), tr.Nodes...)
		if round > 0 {
			r.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		}
		par, parDiags := Build(tr.FileSet(), []*parser.File{{Path: "t.rst", Source: tr.Files()[0].Source, Nodes: nodes}}, nil, nil)
		// reflect.DeepEqual first: cmp walks the graph many times slower,
		// and is only needed to say where two graphs differ.
		if !sameGraph(seq, par) {
			if diff := cmp.Diff(seq, par, opts); diff != "" {
				t.Fatalf("round %d: the parallel build differs (-sequential +parallel):\n%s", round, diff)
			}
		}
		seqDiags.Sort(tr.FileSet())
		parDiags.Sort(tr.FileSet())
		if diff := cmp.Diff(seqDiags, parDiags, cmp.AllowUnexported(source.Pos{})); diff != "" {
			t.Fatalf("round %d: diagnostics differ:\n%s", round, diff)
		}
	}
	codes := map[string]int{}
	for _, d := range seqDiags {
		codes[d.Code.Name]++
	}
	for _, c := range []string{"unresolved-link", "wrong-kind", "duplicate-id", "duplicate-link"} {
		if codes[c] == 0 {
			t.Errorf("the tree makes no %s", c)
		}
	}
}
