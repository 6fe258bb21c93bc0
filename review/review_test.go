package review_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/review"
	"github.com/seg-trace/seg/revision"
)

// writeTree writes files (path -> text) under a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, text := range files {
		name := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func run(t *testing.T, root string) *check.Check {
	t.Helper()
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(check.Options{At: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// items lists a review's items: kind, link, where, and the revisions or
// the condition.
func items(r *review.Review) []string {
	var out []string
	for _, it := range r.Items {
		p := r.Check.Files.Position(it.At.Start)
		s := fmt.Sprintf("%s %s at %s:%d", it.Kind, it.Link, p.Filename, p.Line)
		switch it.Kind {
		case review.Stale:
			s += fmt.Sprintf(" pinned %d, now current=%v", len(it.Pinned), it.Current == it.To.Revision())
		case review.Orphan:
			s += fmt.Sprintf(" pinned %d", len(it.Pinned))
		case review.Condition:
			s += fmt.Sprintf(" [%s] %s: %s", it.Condition.Text, it.Condition.State, it.Condition.Values())
		}
		out = append(out, s)
	}
	return out
}

const segTree = `.. sreq:: Brake
   :id: R-1

.. sreq:: Brake light
   :id: R-2
   :refines: R-1

.. test:: Bench
   :id: T-1
   :verifies: R-1, R-2

.. impl:: Controller
   :id: I-1
   :implements: R-2
`

// lockOf pins every link of c's graph to its target's revision now, but
// the links to stale, pinned to another revision.
func lockOf(c *check.Check, stale ...string) string {
	var b strings.Builder
	g := c.Graph
	for e := range g.Edges() {
		rev := g.To(e).Revision()
		for _, s := range stale {
			if g.To(e).ID() == s {
				rev++
			}
		}
		l := g.Link(e)
		fmt.Fprintf(&b, "%s %s %s %s\n", l.From, l.Link, l.To, revision.String(rev))
	}
	return b.String()
}

// The links whose pin names another revision of their target are stale
// items, a pin whose link is gone an orphan, each once; Apply pins the
// accepted nodes' links (every link with All) to their targets' current
// revisions, keeps orphans unless pruning, and refuses an unknown ID.
func TestStalePins(t *testing.T) {
	root := writeTree(t, map[string]string{"a.rst": segTree})
	lock := lockOf(run(t, root), "R-2") + "T-9 verifies R-1 0000000000000001\n"
	if err := os.WriteFile(filepath.Join(root, pins.FileName), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	c := run(t, root)
	r := review.List(c)
	want := []string{
		"stale I-1 implements R-2 at a.rst:14 pinned 1, now current=true",
		"stale T-1 verifies R-2 at a.rst:10 pinned 1, now current=true",
		"orphan T-9 verifies R-1 at seg.lock:5 pinned 1",
	}
	if d := cmp.Diff(want, items(r)); d != "" {
		t.Errorf("items (-want +got):\n%s", d)
	}
	stale := func(ps []pins.Pin) []string {
		var out []string
		for _, p := range ps {
			if n, ok := c.Graph.Lookup(p.To); !ok || n.Revision() != p.Revision {
				out = append(out, p.Link.String())
			}
		}
		return out
	}
	after, err := r.Apply(review.Change{Accept: []string{"T-1"}}, c.Graph.Closest)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"I-1 implements R-2", "T-9 verifies R-1"}, stale(after)); d != "" {
		t.Errorf("stale pins after --accept T-1 (-want +got):\n%s", d)
	}
	after, err = r.Apply(review.Change{All: true, Prune: true}, c.Graph.Closest)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale(after)) != 0 || len(after) != 4 {
		t.Errorf("--accept-all --prune leaves %d pins, stale %v; want 4, none stale", len(after), stale(after))
	}
	_, err = r.Apply(review.Change{Accept: []string{"T-1x"}}, c.Graph.Closest)
	var unknown *review.UnknownError
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), `did you mean "T-1"?`) {
		t.Errorf("--accept T-1x: %v, want an UnknownError suggesting T-1", err)
	}
	// Strict review: a link without a pin is unreviewed.
	if err := os.WriteFile(filepath.Join(root, "seg.toml"), []byte("[review]\nrequire-pins = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, pins.FileName), []byte(""), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := items(review.List(run(t, root))); len(got) != 4 || !strings.HasPrefix(got[0], "unreviewed I-1 implements R-2") {
		t.Errorf("strict review items: %q, want the 4 links unreviewed", got)
	}
	// A seg.lock with a line seg cannot read is never rewritten.
	if err := os.WriteFile(filepath.Join(root, pins.FileName), []byte("T-1 verifies R-1 nothex\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c = run(t, root)
	var refused *review.RefusedError
	if _, err := review.List(c).Apply(review.Change{All: true}, c.Graph.Closest); !errors.As(err, &refused) {
		t.Errorf("Apply with an invalid pin: %v, want a RefusedError", err)
	}
}

const needsProject = `[needs]
id_required = true
id_regex = "^[A-Z0-9_]{3,}$"
types = [
    {directive = "req", title = "Requirement", prefix = "REQ_"},
    {directive = "test", title = "Test", prefix = "TEST_"},
    {directive = "spec", title = "Specification", prefix = "SPEC_"},
]
extra_options = ["version"]
extra_links = [
    {option = "satisfies", incoming = "satisfied by", outgoing = "satisfies"},
    {option = "tests", incoming = "tested by", outgoing = "tests"},
]
`

const needsMapping = `[needs.types]
req = "requirement"
test = "test"

[needs.links]
satisfies = "refines"
tests = "verifies"
`

const condReqs = `.. req:: Parent
   :id: REQ_P
   :version: 3
   :status: valid

.. req:: Child
   :id: REQ_C
   :version: 1
   :satisfies: REQ_P[version==2]
`

const condTests = `.. test:: Test
   :id: TEST_1
   :tests: REQ_C[ version == 1 ], REQ_P[[status == 'draft']], REQ_P[2 == version]

.. spec:: Spec
   :id: SPEC_1
   :links: REQ_P[version >= 4], REQ_C[versoin == 1]
   :satisfies: REQ_C[
      version == 0]
`

func condTree(t *testing.T) string {
	return writeTree(t, map[string]string{"ubproject.toml": needsProject, "seg.toml": needsMapping, "reqs.rst": condReqs, "tests.rst": condTests})
}

// A link whose condition does not hold, or cannot be evaluated, is a
// condition item at its entry, with what the target's fields are now; a
// link pinned to another revision and with a condition that fails is
// both a stale and a condition item.
func TestConditionItems(t *testing.T) {
	root := condTree(t)
	c := run(t, root)
	lock := fmt.Sprintf("REQ_C satisfies REQ_P %s\n", revision.String(1))
	if err := os.WriteFile(filepath.Join(root, pins.FileName), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	c = run(t, root)
	want := []string{
		"stale REQ_C satisfies REQ_P at reqs.rst:9 pinned 1, now current=true",
		"condition REQ_C satisfies REQ_P at reqs.rst:9 [version==2] fails: version is '3'",
		`condition SPEC_1 links REQ_C at tests.rst:7 [versoin == 1] invalid: name "versoin" is not defined (no need field of that name)`,
		"condition SPEC_1 links REQ_P at tests.rst:7 [version >= 4] fails: version is '3'",
		"condition SPEC_1 satisfies REQ_C at tests.rst:8 [version == 0] fails: version is '1'",
		"condition TEST_1 tests REQ_P at tests.rst:3 [status == 'draft'] fails: status is 'valid'",
		"condition TEST_1 tests REQ_P at tests.rst:3 [2 == version] fails: version is '3'",
	}
	if d := cmp.Diff(want, items(review.List(c))); d != "" {
		t.Errorf("items (-want +got):\n%s", d)
	}
}

// Accepting a node rewrites the value of each of its links' conditions
// that fail (FIELD == VALUE, either way round) to the target's value now,
// in its own quotes, and nothing else of the file; a number stays a
// number.
func TestRewrites(t *testing.T) {
	root := condTree(t)
	r := review.List(run(t, root))
	rws, err := r.Rewrites(review.Change{Accept: []string{"TEST_1", "REQ_C"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, rw := range rws {
		for _, e := range rw.Conditions {
			got = append(got, fmt.Sprintf("%s: %s [%s] -> [%s]", rw.File, e.Link, e.Was, e.Now))
		}
	}
	want := []string{
		"reqs.rst: REQ_C satisfies REQ_P [version==2] -> [version==3]",
		"tests.rst: TEST_1 tests REQ_P [status == 'draft'] -> [status == 'valid']",
		"tests.rst: TEST_1 tests REQ_P [2 == version] -> [3 == version]",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rewrites (-want +got):\n%s", d)
	}
	wantFiles := map[string]string{
		"reqs.rst":  strings.Replace(condReqs, "REQ_P[version==2]", "REQ_P[version==3]", 1),
		"tests.rst": strings.Replace(condTests, "REQ_P[[status == 'draft']], REQ_P[2 == version]", "REQ_P[[status == 'valid']], REQ_P[3 == version]", 1),
	}
	for _, rw := range rws {
		if d := cmp.Diff(wantFiles[rw.File], string(rw.New)); d != "" {
			t.Errorf("%s after the rewrite (-want +got):\n%s", rw.File, d)
		}
		if was, _ := os.ReadFile(filepath.Join(root, rw.File)); string(was) != string(rw.Old) {
			t.Errorf("%s: Old is not the file on disk", rw.File)
		}
	}
	// A node whose conditions all hold changes nothing.
	if rws, err := r.Rewrites(review.Change{Accept: []string{"REQ_P"}}); err != nil || len(rws) != 0 {
		t.Errorf("--accept REQ_P: %d rewrites, %v; want none", len(rws), err)
	}
}

// A condition seg cannot rewrite refuses the whole acceptance, naming
// each: one that cannot be evaluated, one not FIELD == VALUE, an entry
// that spans lines, and one whose file changed (moved) since it was read.
func TestRewritesRefused(t *testing.T) {
	root := condTree(t)
	r := review.List(run(t, root))
	_, err := r.Rewrites(review.Change{Accept: []string{"SPEC_1", "TEST_1"}})
	var ce *review.ConditionError
	if !errors.As(err, &ce) {
		t.Fatalf("Rewrites: %v, want a ConditionError", err)
	}
	want := []string{
		"tests.rst:7:12: link SPEC_1 links REQ_P [version >= 4]: only a condition FIELD == VALUE is rewritten",
		`tests.rst:7:33: link SPEC_1 links REQ_C [versoin == 1]: it cannot be evaluated (name "versoin" is not defined (no need field of that name))`,
		"tests.rst:8:16: link SPEC_1 satisfies REQ_C [version == 0]: the entry spans lines",
	}
	if d := cmp.Diff(want, ce.Lines); d != "" {
		t.Errorf("refused (-want +got):\n%s", d)
	}
	// The source moves after seg read it: the entry is not where it was.
	name := filepath.Join(root, "tests.rst")
	if err := os.WriteFile(name, []byte("Tests\n=====\n\n"+condTests), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = r.Rewrites(review.Change{Accept: []string{"TEST_1"}})
	if !errors.As(err, &ce) || len(ce.Lines) != 2 || !strings.Contains(ce.Lines[0], "the file changed since seg read it") {
		t.Errorf("Rewrites of a moved source: %v, want the two entries refused as changed", err)
	}
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	_, err = r.Rewrites(review.Change{Accept: []string{"TEST_1"}})
	if !errors.As(err, &ce) || !strings.Contains(ce.Lines[0], "cannot read the file") {
		t.Errorf("Rewrites of a removed source: %v, want cannot read the file", err)
	}
}

// A file with a byte order mark and CR LF line ends, and text outside
// ASCII before the entry: only the condition's value changes, the mark
// and the line ends stay.
func TestRewritesBOM(t *testing.T) {
	text := "\ufeff.. req:: Parent ✓\r\n   :id: REQ_P\r\n   :version: 2\r\n\r\n.. req:: Child é\r\n   :id: REQ_C\r\n   :satisfies: REQ_P[version==1]\r\n"
	root := writeTree(t, map[string]string{"ubproject.toml": needsProject, "seg.toml": needsMapping, "a.rst": text})
	rws, err := review.List(run(t, root)).Rewrites(review.Change{Accept: []string{"REQ_C"}})
	if err != nil || len(rws) != 1 {
		t.Fatalf("Rewrites: %d, %v; want one", len(rws), err)
	}
	if want := strings.Replace(text, "REQ_P[version==1]", "REQ_P[version==2]", 1); string(rws[0].New) != want {
		t.Errorf("after the rewrite: %q, want %q", rws[0].New, want)
	}
}

// Under strict review, a link whose condition fails and that has no pin
// is both a condition item and an unreviewed one.
func TestConditionItemsStrict(t *testing.T) {
	root := writeTree(t, map[string]string{"ubproject.toml": needsProject, "seg.toml": needsMapping + "\n[review]\nrequire-pins = true\n",
		"a.rst": ".. req:: P\n   :id: REQ_P\n   :version: 2\n\n.. req:: C\n   :id: REQ_C\n   :satisfies: REQ_P[version==1]\n"})
	want := []string{
		"unreviewed REQ_C satisfies REQ_P at a.rst:7",
		"condition REQ_C satisfies REQ_P at a.rst:7 [version==1] fails: version is '2'",
	}
	if d := cmp.Diff(want, items(review.List(run(t, root)))); d != "" {
		t.Errorf("items (-want +got):\n%s", d)
	}
}
