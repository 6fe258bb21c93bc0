package graph

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"
)

// A build with a Memo, over long runs of the edits a writer makes
// (segtest.Edit: lines deleted, doubled, swapped, IDs and results
// changed, nodes added, cycles made and broken), is the build without
// one: the same graph and the same findings in the same order. Where
// the Memo patched the graph before, every node it does not name as
// changed is the graph before's own; and most edits are patched. Three
// sessions in four carry a seg.lock that pins most links of the graph of
// some step before (some to a stale revision, some twice, in seg's order
// or shuffled, with lines for links the tree lacks): the edits orphan
// pins and give orphans their links back, and now and then the lock is
// written anew.
func TestPatchIsBuild(t *testing.T) {
	defer func(c int) { parallelChunk = c }(parallelChunk)
	var n patchCounts
	for seed := range uint64(40) {
		// Half the trees are built on every core.
		parallelChunk = []int{1 << 30, 4}[seed%2]
		r := rand.New(rand.NewPCG(seed, 7))
		text := segtest.RandomTree(r).RSTFiles(r, 1+r.IntN(6))
		var lock func(int, *Graph, string) string
		if seed%4 != 0 {
			lock = func(step int, last *Graph, was string) string {
				if step == 0 || step > 1 && r.IntN(15) != 0 {
					return was
				}
				return randomLock(r, last)
			}
		}
		n.add(checkPatches(t, text, 60, func(text map[string]string) string { return segtest.Edit(r, text) }, lock))
	}
	// RandomTree's IDs are few and often taken twice, and half of the
	// edits add, rename or remove an ID: those are built afresh.
	if n.patched < n.builds/8 || n.pinned < n.pinnedBuilds/8 {
		t.Errorf("%d of %d builds patched the graph before, %d of the %d with pins", n.patched, n.builds, n.pinned, n.pinnedBuilds)
	}
	t.Logf("%d of %d builds patched, %d of the %d with pins; %d of the patches changed the orphan pins", n.patched, n.builds, n.pinned, n.pinnedBuilds, n.reorphaned)
}

// randomLock is a seg.lock for g: about three links in four pinned, one
// pin in five to another revision than its target's, one in eight
// twice, a few lines for links between g's nodes it may gain, one for a
// link it cannot; in seg's order or shuffled.
func randomLock(r *rand.Rand, g *Graph) string {
	var lines, ids []string
	pin := func(l pins.Link, rev uint64) {
		lines = append(lines, fmt.Sprintf("%s %s %s %s\n", l.From, l.Link, l.To, revision.String(rev)))
	}
	for e := range g.Edges() {
		if !g.From(e).Pinnable() || r.IntN(4) == 0 {
			continue
		}
		rev := g.To(e).Revision()
		if r.IntN(5) == 0 {
			rev++
		}
		pin(g.Link(e), rev)
		if r.IntN(8) == 0 {
			pin(g.Link(e), rev+uint64(r.IntN(2)))
		}
	}
	for n := range g.Nodes() {
		if n.Pinnable() {
			ids = append(ids, n.ID())
		}
	}
	for range r.IntN(6) {
		if len(ids) > 0 {
			pin(pins.Link{From: ids[r.IntN(len(ids))], Link: lockLinks[r.IntN(len(lockLinks))], To: ids[r.IntN(len(ids))]}, r.Uint64())
		}
	}
	pin(pins.Link{From: "GONE", Link: "verifies", To: "R0"}, 1)
	if r.IntN(2) == 0 {
		slices.Sort(lines)
	} else {
		r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	}
	return strings.Join(lines, "")
}

var lockLinks = []string{"refines", "verifies", "implements", "confirms", "witnesses", "excuses"}

// patchCounts counts the builds of checkPatches: all of them, those
// that patched, those given pins and of those the ones that patched,
// and the patches that changed which pins are orphans.
type patchCounts struct {
	builds, patched, pinnedBuilds, pinned, reorphaned int
	// renamed counts the patches that changed an ID, moved those that
	// moved one in the ID order (nodes changed index).
	renamed, moved int
}

func (n *patchCounts) add(m patchCounts) {
	n.builds += m.builds
	n.patched += m.patched
	n.pinnedBuilds += m.pinnedBuilds
	n.pinned += m.pinned
	n.reorphaned += m.reorphaned
	n.renamed += m.renamed
	n.moved += m.moved
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
	n := checkPatches(t, text, len(edits)+1, func(m map[string]string) string { k++; return edits[k-1](m) }, nil)
	if n.patched != n.builds-1 {
		t.Errorf("%d of %d builds patched, want every one after the first", n.patched, n.builds)
	}
}

// A patch gives the edges it makes the pins of their links, every line
// of a link pinned twice, and each edge of a link written twice; pins of
// links an edit removed become orphans, in seg.lock's order, and orphans
// whose link comes back are pins again; an edge's pin that goes away
// with the last pinned edge leaves a graph without pins.
func TestPatchPins(t *testing.T) {
	text := map[string]string{
		"a.rst": `.. req:: A
   :id: R1
   :refines: R2

.. test:: T
   :id: T1
   :verifies: R1, R2
`,
		"b.rst": `.. req:: B
   :id: R2

.. req:: C
   :id: R3
`,
	}
	lock := `T1 verifies R2 00000000000000aa
R1 refines R2 00000000000000b1
R1 refines R3 00000000000000c0
R1 refines R2 00000000000000b2
GONE verifies R0 0000000000000000
T1 verifies R1 00000000000000d0
`
	replace := func(path, old, new string) func(map[string]string) string {
		return func(m map[string]string) string {
			if !strings.Contains(m[path], old) {
				t.Fatalf("%s has no %q", path, old)
			}
			m[path] = strings.Replace(m[path], old, new, 1)
			return path
		}
	}
	edits := []func(map[string]string) string{
		func(m map[string]string) string { m["a.rst"] = "\n\n" + m["a.rst"]; return "a.rst" },
		replace("a.rst", ":refines: R2", ":refines: R3"),
		replace("a.rst", ":refines: R3", ":refines: R3, R2"),
		replace("a.rst", ":verifies: R1, R2", ":verifies: R2, R1, R2"),
		replace("a.rst", ":refines: R3, R2", ":refines: R2"),
		func(m map[string]string) string { m["b.rst"] = "\n" + m["b.rst"]; return "b.rst" },
		replace("a.rst", ":verifies: R2, R1, R2", ":verifies: R9"),
		replace("a.rst", ":refines: R2", ":refines: R9"),
		replace("a.rst", ":verifies: R9", ":verifies: R1, R2"),
	}
	// The links of the orphan pins after each number of edits but the
	// last.
	want := []string{
		"R1 refines R3, GONE verifies R0",
		"R1 refines R3, GONE verifies R0",
		"R1 refines R2, GONE verifies R0",
		"GONE verifies R0",
		"GONE verifies R0",
		"R1 refines R3, GONE verifies R0",
		"R1 refines R3, GONE verifies R0",
		"T1 verifies R2, R1 refines R3, GONE verifies R0, T1 verifies R1",
		"T1 verifies R2, R1 refines R2, R1 refines R3, GONE verifies R0, T1 verifies R1",
	}
	var got []string
	var hasPins []bool
	k := 0
	n := checkPatches(t, text, len(edits)+1, func(m map[string]string) string { k++; return edits[k-1](m) },
		func(step int, last *Graph, _ string) string {
			if last != nil {
				var links []string
				for _, p := range last.OrphanPins() {
					links = append(links, p.Link.String())
				}
				got = append(got, strings.Join(links, ", "))
				hasPins = append(hasPins, last.HasPins())
			}
			return lock
		})
	if n.patched != n.builds-1 {
		t.Errorf("%d of %d builds patched, want every one after the first", n.patched, n.builds)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("orphan pins after each edit (-want +got):\n%s", d)
	}
	if i := slices.Index(hasPins, false); i != 8 {
		t.Errorf("the graph had no pins first after %d edits, want 8 (%v)", i, hasPins)
	}
}

// checkPatches builds the graph of text, parsed as the language server
// parses it (a file read again only when edited), after each of steps-1
// edits made by edit, with a Memo and without one, and fails when they
// differ. lock, when not nil, gives seg.lock's text at each step from
// the graph of the step before (nil at the first) and the text before;
// the lock is read anew at every step, as a check reads it, so each
// build is given a new slice. It counts the builds that patched the
// last graph, of how many.
func checkPatches(t *testing.T, text map[string]string, steps int, edit func(map[string]string) string, lock func(step int, last *Graph, was string) string) (n patchCounts) {
	t.Helper()
	return checkPatchesWith(t, nil, nil, text, steps, edit, lock, nil)
}

// checkPatchesWith is checkPatches with the configuration cfg and the
// sphinx-needs project np whose tables it holds (nil for the default and
// none), calling inspect (when not nil) with each step's graph and
// findings.
func checkPatchesWith(t *testing.T, cfg *parser.Config, np *needs.Project, text map[string]string, steps int, edit func(map[string]string) string,
	lock func(step int, last *Graph, was string) string, inspect func(step int, g *Graph, ds diag.List)) (n patchCounts) {
	t.Helper()
	opts := graphOpts
	tree := segtest.ParseWith(text, cfg)
	var m Memo
	var last *Graph
	lockText := ""
	for step := range steps {
		if step > 0 {
			tree.Changed(edit(text))
		}
		fset, files := tree.Files()
		var ps []pins.Pin
		if lock != nil {
			lockText = lock(step, last, lockText)
			sf := fset.Add(pins.FileName, len(lockText), source.Newlines)
			sf.SetSource([]byte(lockText), false)
			ps = pins.Read(sf, []byte(lockText), func(l string) bool { return slices.Contains(lockLinks, l) }).Pins
		}
		got, gotDiags := BuildMemo(fset, files, nil, np, ps, &m)
		want, wantDiags := BuildPinned(fset, files, nil, np, ps)
		if inspect != nil {
			inspect(step, want, wantDiags)
		}
		n.builds++
		if len(ps) > 0 {
			n.pinnedBuilds++
		}
		if !sameGraph(want, got) {
			t.Fatalf("step %d: the build with a Memo differs (-without +with):\n%s", step, cmp.Diff(want, got, opts))
		}
		if !reflect.DeepEqual(wantDiags, gotDiags) {
			t.Fatalf("step %d: findings differ (-without +with):\n%s", step, cmp.Diff(wantDiags, gotDiags, cmp.AllowUnexported(source.Pos{}), cmp.Comparer(func(a, b *diag.Code) bool { return a == b })))
		}
		d := m.Delta()
		prev, changed, ok := d.Base(), d.Changed(), d.Valid()
		if ok && prev != last {
			t.Fatalf("step %d: Changed names another graph before", step)
		}
		last = got
		if !ok {
			continue
		}
		n.patched++
		if len(ps) > 0 {
			n.pinned++
		}
		if !reflect.DeepEqual(got.orphans, prev.orphans) {
			n.reorphaned++
		}
		for _, i := range changed {
			if got.nodes[i].id != prev.nodes[i].id {
				n.renamed++
				break
			}
		}
		for _, i := range changed {
			if i+1 < len(prev.nodes) && got.nodes[i].id == prev.nodes[i+1].id || i > 0 && got.nodes[i].id == prev.nodes[i-1].id {
				n.moved++
				break
			}
		}
		for i := range got.nodes {
			if _, named := slices.BinarySearch(changed, i); !named && got.nodes[i] != prev.nodes[i] {
				t.Fatalf("step %d: node %s is new, and not named changed", step, got.nodes[i].id)
			}
		}
	}
	return n
}

// graphOpts compare two graphs field by field, the file set and the
// sphinx-needs project they share by identity.
var graphOpts = cmp.Options{cmpopts.IgnoreFields(Graph{}, "gen"), cmp.AllowUnexported(Graph{}, Node{}, Edge{}, OpenLink{}, edgeExtra{}, condResult{}, source.Pos{}),
	cmp.Comparer(func(a, b *source.FileSet) bool { return a == b }),
	cmp.Comparer(func(a, b *needs.Project) bool { return a == b })}

// An edit that renames IDs, each keeping its place in the ID order, is
// patched, and is the build: links of other files to the old ID dangle,
// open links to the new one resolve, "did you mean" reads the new IDs,
// the pins of the old ID are orphans and those of the new one pin, a
// cycle through the renamed node is found again. The edits rename an
// ID by a trailing "-" (segtest.Rename), take it back, make links name
// such an ID, and mix in segtest.Edit's (duplicates
// appearing and going away, IDs moving in the order: built afresh).
func TestPatchRenamesIsBuild(t *testing.T) {
	var n patchCounts
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 31))
		text := segtest.RandomTree(r).RSTFiles(r, 2+r.IntN(5))
		var lock func(int, *Graph, string) string
		if seed%2 == 0 {
			lock = func(step int, last *Graph, was string) string {
				if step == 0 || step > 1 && r.IntN(10) != 0 {
					return was
				}
				return randomLock(r, last)
			}
		}
		edit := func(text map[string]string) string {
			if r.IntN(5) == 0 {
				return segtest.Edit(r, text)
			}
			return segtest.Rename(r, text)
		}
		n.add(checkPatches(t, text, 50, edit, lock))
	}
	if n.patched < n.builds/3 || n.renamed < n.patched/4 || n.moved < n.renamed/20 {
		t.Errorf("%d of %d builds patched, %d of them renaming, %d moving an ID", n.patched, n.builds, n.renamed, n.moved)
	}
	t.Logf("%d of %d builds patched, %d of them renaming, %d moving an ID, %d of the %d with pins; %d of the patches changed the orphan pins",
		n.patched, n.builds, n.renamed, n.moved, n.pinned, n.pinnedBuilds, n.reorphaned)
}
