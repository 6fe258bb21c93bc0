package graph

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// A build with a Memo is the build without one, over a run of edits of
// every sort: none, a link's target, a node's ID (new, taken, swapped), a
// node gone, a node moved, a node added; and the Memo's shortcuts are
// taken where the input allows them.
func TestMemoBuildIsBuild(t *testing.T) {
	defer func(c int) { parallelChunk = c }(parallelChunk)
	parallelChunk = 64 // sort on two cores
	tr := treeOf(600)
	fset := tr.FileSet()
	base := tr.Files()[0]
	opts := graphOpts
	r := rand.New(rand.NewPCG(3, 4))
	nodes := slices.Clone(base.Nodes)
	pick := func() int { return r.IntN(len(nodes)) }
	relink := func(i int, id string) {
		n := &nodes[i]
		n.Options = slices.Clone(n.Options)
		for j := range n.Options {
			if len(n.Options[j].Links) > 0 {
				n.Options[j].Links = slices.Clone(n.Options[j].Links)
				n.Options[j].Links[0].ID = id
				return
			}
		}
	}
	edits := []struct {
		name  string
		edit  func()
		sort  bool // the sort is replayed
		index bool // so is the index, by its names alone
		patch bool // the last graph is patched (no sort, no index)
	}{
		{"none", func() {}, false, false, false}, // the first build has nothing to replay
		{"none again", func() {}, false, false, true},
		{"a link's target", func() { relink(pick(), "R-17") }, false, false, true},
		{"a link to nothing", func() { relink(pick(), "NOWHERE") }, false, false, true},
		{"a new ID", func() { nodes[pick()].ID = "NEW-1" }, false, false, false},
		{"the same again", func() {}, false, false, true},
		{"a taken ID", func() { i := pick(); nodes[i].ID = nodes[pick()].ID }, false, false, false},
		{"two IDs swapped", func() { i, j := pick(), pick(); nodes[i].ID, nodes[j].ID = nodes[j].ID, nodes[i].ID }, false, true, false},
		{"a node moved", func() { nodes[pick()].Pos = nodes[pick()].Pos }, false, false, true},
		{"a node gone", func() { i := pick(); nodes = slices.Delete(slices.Clone(nodes), i, i+1) }, false, false, false},
		{"a node added", func() {
			n := nodes[pick()] // a copy: its ID is taken, a little further on
			n.Pos = n.Pos.Add(1)
			nodes = append(slices.Clone(nodes), n)
		}, false, true, false},
		{"two of one ID swap places", func() {
			first := map[string]int{}
			for i := range nodes {
				if j, ok := first[nodes[i].ID]; ok && nodes[i].ID != "" {
					nodes[i].Pos, nodes[j].Pos = nodes[j].Pos, nodes[i].Pos
					return
				}
				first[nodes[i].ID] = i
			}
			t.Fatal("no ID twice")
		}, false, true, false},
		{"nodes in another order", func() {
			nodes = slices.Clone(nodes)
			r.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		}, false, true, false},
		{"an outcome without an ID", func() {
			for i := range nodes {
				if nodes[i].Kind == parser.Outcome {
					nodes[i].ID = ""
					return
				}
			}
		}, false, false, false},
		{"a last link edit", func() { relink(pick(), "T-3") }, false, false, true},
		{"another ID", func() { nodes[pick()].ID = "NEW-2" }, false, false, false},
		{"two nodes tie", func() { nodes = append(slices.Clone(nodes), nodes[pick()]) }, false, true, false},
		{"a link edit with a tie", func() { relink(len(nodes)/2+1, "T-4") }, false, false, true},
	}
	var m Memo
	// The nodes are parsed in files of 40; as in the language server, a
	// file none of whose nodes changed keeps its parse (the same nodes),
	// one that changed is parsed again (new nodes).
	var parsed [][]parser.Node
	for step, e := range edits {
		e.edit()
		var files []*parser.File
		for c := 0; c*40 < len(nodes); c++ {
			chunk := nodes[c*40 : min(len(nodes), (c+1)*40)]
			if c == len(parsed) {
				parsed = append(parsed, nil)
			}
			if !reflect.DeepEqual(parsed[c], chunk) {
				parsed[c] = slices.Clone(chunk)
			}
			files = append(files, &parser.File{Path: base.Path, Source: base.Source, Nodes: parsed[c]})
		}
		sorts, indexes, copied := m.reusedSort, m.reusedIndex, m.reusedTargets.Load()
		got, gotDiags := BuildMemo(fset, files, nil, nil, nil, &m)
		want, wantDiags := Build(fset, files, nil, nil)
		if !sameGraph(want, got) {
			if diff := cmp.Diff(want, got, opts); diff != "" {
				t.Fatalf("step %d (%s): the build with a Memo differs (-without +with):\n%s", step, e.name, diff)
			}
		}
		gotDiags.Sort(fset)
		wantDiags.Sort(fset)
		if diff := cmp.Diff(wantDiags, gotDiags, cmp.AllowUnexported(source.Pos{})); diff != "" {
			t.Fatalf("step %d (%s): diagnostics differ:\n%s", step, e.name, diff)
		}
		d := m.Delta()
		prev, changed, patched := d.Base(), d.Changed(), d.Valid()
		if patched != e.patch {
			t.Fatalf("step %d (%s): patched %v, want %v", step, e.name, patched, e.patch)
		}
		if patched {
			// Every node the patch did not name is the graph before's.
			for i := range got.nodes {
				if _, named := slices.BinarySearch(changed, i); !named && got.nodes[i] != prev.nodes[i] {
					t.Fatalf("step %d (%s): node %d (%s) is new but not named changed", step, e.name, i, got.nodes[i].id)
				}
			}
			if m.reusedSort > sorts || m.reusedIndex > indexes {
				t.Errorf("step %d (%s): a patch sorted or indexed", step, e.name)
			}
			continue
		}
		if reused := m.reusedSort > sorts; reused != e.sort {
			t.Errorf("step %d (%s): sort replayed %v, want %v", step, e.name, reused, e.sort)
		}
		if reused := m.reusedIndex > indexes; reused != e.index {
			t.Errorf("step %d (%s): index reused %v, want %v", step, e.name, reused, e.index)
		}
		// A node the last build had at its place keeps its targets when
		// the index is the same (with no edit, every node), and none
		// does when it is not.
		n := m.reusedTargets.Load() - copied
		if !e.index && n > 0 || (e.name == "none again" || e.name == "the same again") && n != int64(len(got.nodes)) {
			t.Errorf("step %d (%s): targets of %d nodes copied (index reused %v, of %d nodes)", step, e.name, n, e.index, len(got.nodes))
		}
	}
}
