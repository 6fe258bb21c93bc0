package graph

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/segtest"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/source"
)

// A build with a Memo, over long runs of the edits a writer makes
// (segtest.Edit: lines deleted, doubled, swapped, IDs and results
// changed, nodes added, cycles made and broken), is the build without
// one: the same graph and the same findings in the same order. Where
// the Memo patched the graph before, every node it does not name as
// changed is the graph before's own; and most edits are patched.
func TestPatchIsBuild(t *testing.T) {
	defer func(c int) { parallelChunk = c }(parallelChunk)
	patched, builds := 0, 0
	for seed := range uint64(40) {
		// Half the trees are built on every core.
		parallelChunk = []int{1 << 30, 4}[seed%2]
		r := rand.New(rand.NewPCG(seed, 7))
		text := segtest.RandomTree(r).RSTFiles(r, 1+r.IntN(6))
		p, b := checkPatches(t, text, 60, func(text map[string]string) string { return segtest.Edit(r, text) })
		patched += p
		builds += b
	}
	// RandomTree's IDs are few and often taken twice, and half of the
	// edits add, rename or remove an ID: those are built afresh.
	if patched < builds/8 {
		t.Errorf("%d of %d builds patched the graph before", patched, builds)
	}
	t.Logf("%d of %d builds patched", patched, builds)
}

// What a node reads of the nodes it names, in another file, changes with
// them: a waiver's warnings with the results of the outcomes it excuses
// (directly, or of a test it excuses), a wrong-kind finding with where
// its target is, a cycle's finding with where its links are.
func TestPatchReadsAcrossFiles(t *testing.T) {
	text := map[string]string{
		"a.rst": `.. req:: A
   :id: R1
   :refines: R2

.. outcome:: O
   :id: O1
   :confirms: T1
   :witnesses: I1
   :result: passed

.. impl:: I
   :id: I1
   :implements: R1
`,
		"b.rst": `.. req:: B
   :id: R2
   :refines: R1

.. test:: T
   :id: T1
   :verifies: R1, I1

.. waiver:: W
   :id: W1
   :excuses: O1
   :expires: 2027-01-01

.. waiver:: W
   :id: W2
   :excuses: T1
   :expires: 2027-01-01
`,
	}
	edits := []func(map[string]string) string{
		func(m map[string]string) string { m["a.rst"] = "\n\n" + m["a.rst"]; return "a.rst" },
		func(m map[string]string) string {
			m["a.rst"] = strings.Replace(m["a.rst"], "passed", "failed", 1)
			return "a.rst"
		},
		func(m map[string]string) string { m["a.rst"] = "Prose.\n\n" + m["a.rst"]; return "a.rst" },
		func(m map[string]string) string {
			m["a.rst"] = strings.Replace(m["a.rst"], "failed", "skipped", 1)
			return "a.rst"
		},
		func(m map[string]string) string {
			m["a.rst"] = strings.Replace(m["a.rst"], ":refines: R2", ":refines: R9", 1)
			return "a.rst"
		},
		func(m map[string]string) string {
			m["a.rst"] = strings.Replace(m["a.rst"], ":refines: R9", ":refines: R2", 1)
			return "a.rst"
		},
		func(m map[string]string) string { m["b.rst"] = "\n" + m["b.rst"]; return "b.rst" },
	}
	k := 0
	patched, builds := checkPatches(t, text, len(edits)+1, func(m map[string]string) string { k++; return edits[k-1](m) })
	if patched != builds-1 {
		t.Errorf("%d of %d builds patched, want every one after the first", patched, builds)
	}
}

// checkPatches builds the graph of text, parsed as the language server
// parses it (a file read again only when edited), after each of steps-1
// edits made by edit, with a Memo and without one, and fails when they
// differ. It returns how many builds patched the last graph, of how many.
func checkPatches(t *testing.T, text map[string]string, steps int, edit func(map[string]string) string) (patched, builds int) {
	t.Helper()
	opts := graphOpts
	tree := segtest.Parse(text)
	var m Memo
	for step := range steps {
		if step > 0 {
			tree.Changed(edit(text))
		}
		fset, files := tree.Files()
		got, gotDiags := BuildMemo(fset, files, nil, nil, nil, &m)
		want, wantDiags := Build(fset, files, nil, nil)
		builds++
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("step %d: the build with a Memo differs (-without +with):\n%s", step, cmp.Diff(want, got, opts))
		}
		if !reflect.DeepEqual(wantDiags, gotDiags) {
			t.Fatalf("step %d: findings differ (-without +with):\n%s", step, cmp.Diff(wantDiags, gotDiags, cmp.AllowUnexported(source.Pos{}), cmp.Comparer(func(a, b *diag.Code) bool { return a == b })))
		}
		prev, changed, ok := m.Changed()
		if !ok {
			continue
		}
		patched++
		for i := range got.nodes {
			if _, named := slices.BinarySearch(changed, i); !named && got.nodes[i] != prev.nodes[i] {
				t.Fatalf("step %d: node %s is new, and not named changed", step, got.nodes[i].id)
			}
		}
	}
	return patched, builds
}

// graphOpts compare two graphs field by field, the file set and the
// sphinx-needs project they share by identity.
var graphOpts = cmp.Options{cmp.AllowUnexported(Graph{}, Node{}, Edge{}, OpenLink{}, edgeExtra{}, source.Pos{}),
	cmp.Comparer(func(a, b *source.FileSet) bool { return a == b }),
	cmp.Comparer(func(a, b *needs.Project) bool { return a == b })}
