package check_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/internal/testing/randlock"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/report"
	"github.com/seg-trace/seg/revision"
)

var liveAt = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// reports is what a check says, in the formats that carry every verdict,
// reason, diagnostic and edge with its position.
func reports(t *testing.T, c *check.Check) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteJSON(&b, c); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteGraphJSON(&b, c); err != nil {
		t.Fatal(err)
	}
	// The notes among the reasons too (excluded evidence), which the
	// reports leave to explanations.
	for _, v := range c.Result.Verdicts {
		for _, r := range v.Reasons {
			fmt.Fprintf(&b, "%s reason: %q %v %s %s\n", v.ID, r.Code.Name, r.Blocking, c.Files.Position(r.Pos), r.Message)
		}
	}
	// How every outcome stands for every test it confirms.
	for n := range c.Graph.Nodes() {
		for _, oe := range c.Result.TestOutcomes(n) {
			why := ""
			if oe.Why != nil {
				why = oe.Why.Name
			}
			fmt.Fprintf(&b, "%s outcome: %s %s code: %q %s\n", n.ID(), oe.Outcome.ID(), oe.Standing, why, oe.Detail)
		}
	}
	// The source files read, as a stored report would record them.
	b.WriteString(check.Deps(c))
	return b.String()
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fresh is what seg check says of the tree under root.
func fresh(t *testing.T, root string) (*check.Check, string) {
	t.Helper()
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(check.Options{At: liveAt})
	if err != nil {
		t.Fatal(err)
	}
	return c, reports(t, c)
}

// A live check gives what a fresh check of the same text gives, after
// every edit of a long run: edits typed into buffers (not saved), saved,
// buffers closed (the disk counts again), files created, changed and
// deleted outside the editor, new buffers not saved yet; over random
// trees with seg.lock pins (current, stale, orphan, invalid), test
// results, :source: files, dates and maximum ages. The reference is seg
// check of a second folder that holds what the editor shows.
func TestLiveIsRun(t *testing.T) {
	seeds, steps := 40, 30
	if testing.Short() {
		seeds = 8
	}
	// The runs must reach what the rules of evidence read (all the seeds
	// do; a short run's may not).
	reached := map[string]bool{}
	defer func() {
		for _, what := range []string{`"stale-link"`, `"orphan-pin"`, `"invalid-pin"`, `"missing-source"`, `"expired-evidence"`,
			`"undated-evidence"`, `"future-evidence"`, `"outcome-failed"`, `"outcome-excused"`, `"duplicate-id"`, `"unresolved-link"`,
			`"refinement-cycle"`, `"results/run.xml::suite.case_1"`, `"status": "failing"`, `"status": "satisfied"`} {
			if !reached[what] && !t.Failed() && !testing.Short() {
				t.Errorf("no run reached %s", what)
			}
		}
	}()
	patched, runs, got := sessions(t, seeds, func(t *testing.T, seed int, counted func(*check.Live), reached map[string]bool) {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		disk := segtest.RandomTree(r).RSTFiles(r, 1+r.IntN(4))
		for range 3 {
			disk[fmt.Sprintf("extra/doc-%d.rst", r.IntN(3))] += segtest.NewNode(r)
		}
		segtest.Evidence(r, disk)
		how := liveHow{cached: seed%2 == 1, settled: seed%4 >= 2, events: rand.New(rand.NewPCG(uint64(seed), 13)), runs: counted}
		liveSession(t, r, disk, steps, how, reached)
	})
	for what := range got {
		reached[what] = true
	}
	// Edits that keep every ID patch the last graph, seg.lock's pins and
	// all; a results file too recent to trust by its identity is read
	// anew (every run on the real clock), and such a run builds afresh.
	if patched < runs/8 {
		t.Errorf("%d of %d runs patched the last graph", patched, runs)
	}
	t.Logf("%d of %d runs patched", patched, runs)
}

// sessions runs n independent live sessions on every core: session gets
// its seed, the function to give liveHow.runs and its own record of
// what it reached. Once all are done, sessions returns how many of the
// runs patched the last graph, of how many, and what any session
// reached.
func sessions(t *testing.T, n int, session func(t *testing.T, seed int, counted func(*check.Live), reached map[string]bool)) (patched, runs int64, reached map[string]bool) {
	var p, r atomic.Int64
	counted := func(l *check.Live) {
		r.Add(1)
		if check.Patched(l) {
			p.Add(1)
		}
	}
	each := make([]map[string]bool, n)
	t.Run("sessions", func(t *testing.T) {
		for seed := range n {
			each[seed] = map[string]bool{}
			t.Run(fmt.Sprint(seed), func(t *testing.T) {
				t.Parallel()
				session(t, seed, counted, each[seed])
			})
		}
	})
	reached = map[string]bool{}
	for _, m := range each {
		for what := range m {
			reached[what] = true
		}
	}
	return p.Load(), r.Load(), reached
}

// A tree without seg.lock pins is what a live run patches the last graph
// of and evaluates again in part (graph.Memo, evaluate.Update): held to
// a fresh check in the same way, and most runs of it are patches. So is
// one that takes outcomes from results files, on a clock that trusts
// the files' identities (the run before a results file changes, and the
// one after, build afresh).
func TestLiveIsRunPatched(t *testing.T) {
	for _, results := range []bool{false, true} {
		t.Run(map[bool]string{false: "bare", true: "results"}[results], func(t *testing.T) {
			livePatched(t, results)
		})
	}
}

// A live run after an edit that renames IDs in their place in the ID
// order, or makes links name such IDs, is patched, and is the fresh
// check of the same text, byte for byte in every report: with and
// without a seg.lock that pins the tree's links (the renames orphan
// its lines and give them back).
func TestLiveIsRunRenamed(t *testing.T) {
	for _, pinned := range []bool{false, true} {
		t.Run(map[bool]string{false: "bare", true: "pinned"}[pinned], func(t *testing.T) {
			seeds, steps := 16, 40
			if testing.Short() {
				seeds = 4
			}
			patched, runs, _ := sessions(t, seeds, func(t *testing.T, seed int, counted func(*check.Live), reached map[string]bool) {
				r := rand.New(rand.NewPCG(uint64(seed), 41))
				disk := segtest.RandomTree(r).RSTFiles(r, 2+r.IntN(4))
				how := liveHow{cached: seed%2 == 1, bare: !pinned, renames: true, runs: counted}
				liveSession(t, r, disk, steps, how, reached)
			})
			if patched < runs/4 {
				t.Errorf("%d of %d runs patched the last graph", patched, runs)
			}
			t.Logf("%d of %d runs patched", patched, runs)
		})
	}
}

func livePatched(t *testing.T, results bool) {
	seeds, steps := 30, 40
	if testing.Short() {
		seeds = 6
	}
	patched, runs, _ := sessions(t, seeds, func(t *testing.T, seed int, counted func(*check.Live), reached map[string]bool) {
		patchedSession(t, seed, steps, results, counted, reached)
	})
	// RandomTree's IDs are few and often taken twice, and many edits add,
	// rename or remove one: those runs build afresh.
	if patched < runs/8 {
		t.Errorf("%d of %d runs patched the last graph", patched, runs)
	}
	t.Logf("%d of %d runs patched", patched, runs)
}

func patchedSession(t *testing.T, seed, steps int, results bool, counted func(*check.Live), reached map[string]bool) {
	r := rand.New(rand.NewPCG(uint64(seed), 17))
	disk := segtest.RandomTree(r).RSTFiles(r, 2+r.IntN(4))
	how := liveHow{cached: seed%2 == 1, bare: true, runs: counted}
	if results {
		segtest.Evidence(r, disk)
		// The witness is an implementation (while no edit
		// takes it away): else every run reads the results again.
		disk["extra/witness.rst"] = ".. impl:: Witness\n   :id: I0\n   :implements: R0\n"
		how.settled = true
		how.events = rand.New(rand.NewPCG(uint64(seed), 19))
	}
	liveSession(t, r, disk, steps, how, reached)
}

// liveHow says how a session runs: through a parse cache or not; with
// a clock an hour ahead of the files (settled: every source file counts
// as settled, so the live check trusts the identity of one it has read,
// and each write gives the file a time of its own, as writes seconds
// apart do); and, when events is not nil, with source files created,
// deleted and rewritten in place besides the edits.
type liveHow struct {
	cached, settled bool
	events          *rand.Rand
	// bare: no seg.lock is written; runs, when not nil, is told of every
	// live run.
	bare bool
	runs func(*check.Live)
	// renames: two edits in three rename an ID in its place in the ID
	// order, or make a link name such an ID (segtest.Rename).
	renames bool

	// compact: the live check holds its parses compacted (Options.Compact).
	compact bool
}

// liveSession runs one session of edits on the tree disk (path ->
// content) and compares the live check with a fresh one after each.
func liveSession(t *testing.T, r *rand.Rand, disk map[string]string, steps int, how liveHow, reached map[string]bool) {
	view := t.TempDir() // what the editor shows: the reference
	live := t.TempDir() // the disk the server reads, buffers aside
	writeFiles(t, view, disk)
	if !how.bare {
		first, _ := fresh(t, view)
		disk["seg.lock"] = randlock.Lock(r, first, 5)
		writeFiles(t, view, disk)
	}
	writeFiles(t, live, disk)
	shownOnDisk := maps(disk, nil) // what view holds

	tr, err := check.Open(live, "")
	if err != nil {
		t.Fatal(err)
	}
	o := check.Options{Compact: how.compact}
	if how.cached {
		o.Cache = cache.Open(t.TempDir(), "test", tr.Config.Parser)
	}
	l := tr.Live(o)
	written := time.Now().Add(-time.Hour)
	write := func(p, text string, exists bool) {
		t.Helper()
		setDisk(t, live, disk, p, text, exists)
		if how.settled && exists {
			written = written.Add(time.Second)
			if err := os.Chtimes(filepath.Join(live, filepath.FromSlash(p)), written, written); err != nil {
				t.Fatal(err)
			}
		}
	}
	if how.settled {
		check.SetSourceClock(l, func() time.Time { return time.Now().Add(time.Hour) })
		check.SetResultsClock(l, func() time.Time { return time.Now().Add(time.Hour) })
	}
	buffers := map[string]string{}
	compare := func(step int, what string) {
		t.Helper()
		c, err := l.Run(liveAt)
		if err != nil {
			t.Fatalf("step %d (%s): %v", step, what, err)
		}
		if how.runs != nil {
			how.runs(l)
		}
		_, want := fresh(t, view)
		for _, line := range strings.Split(want, "\n") {
			line = strings.TrimSpace(line)
			if _, code, ok := strings.Cut(line, " reason: "); ok {
				line = "code: " + strings.Fields(code)[0]
			}
			if _, code, ok := strings.Cut(line, " code: "); ok {
				line = "code: " + strings.Fields(code)[0]
			}
			if k, v, ok := strings.Cut(line, ": "); ok {
				reached[strings.TrimSuffix(v, ",")] = true
				reached[k+": "+strings.TrimSuffix(v, ",")] = true
			}
		}
		if diff := cmp.Diff(want, reports(t, c)); diff != "" {
			t.Fatalf("step %d (%s): live (+) and fresh (-) checks differ:\n%s", step, what, diff)
		}
	}
	compare(0, "start")
	for step := 1; step <= steps; step++ {
		if how.events != nil && how.events.IntN(6) == 0 {
			// A source file changes outside the editor: nothing tells the
			// live check.
			p, text, exists := sourceEvent(how.events, disk)
			write(p, text, exists)
			syncView(t, view, shownOnDisk, maps(disk, buffers))
			compare(step, "source "+p)
			continue
		}
		if _, ok := disk["seg.toml"]; ok && how.events != nil && how.events.IntN(5) == 0 {
			// A test run writes its results: nothing tells the live
			// check either.
			p, text, exists := resultsEvent(how.events, disk)
			what := "results " + p
			if text == disk[p] && exists {
				// Written again with the same bytes: a new time.
				what = "touch " + p
			}
			write(p, text, exists)
			syncView(t, view, shownOnDisk, maps(disk, buffers))
			compare(step, what)
			continue
		}
		// The text the editor shows, edited.
		shown := maps(disk, buffers)
		var p string
		if how.renames && r.IntN(3) != 0 {
			p = segtest.Rename(r, shown)
		} else {
			p = segtest.Edit(r, shown)
		}
		text, exists := shown[p]
		var what string
		switch _, open := buffers[p]; {
		case !strings.HasSuffix(p, ".rst") || !exists && !open:
			// Outside the editor: a source file, or a file deleted.
			what = "disk " + p
			write(p, text, exists)
			l.Changed(p)
		case open && r.IntN(4) == 0:
			what = "save " + p
			buffers[p] = text
			write(p, text, true)
			l.SetText(p, []byte(text))
			l.Changed(p)
		case open && r.IntN(5) == 0:
			// Closed without saving: the disk counts again.
			what = "close " + p
			delete(buffers, p)
			l.SetText(p, nil)
		case open || r.IntN(2) == 0:
			what = "type " + p
			buffers[p] = text
			l.SetText(p, []byte(text))
		default:
			what = "disk " + p
			write(p, text, true)
			l.Changed(p)
		}
		syncView(t, view, shownOnDisk, maps(disk, buffers))
		compare(step, what)
	}
}

// sourceEvent changes a file the implementations' :source: entries
// (segtest: src/a.c, src/missing.c, the folder src) may match: one
// created, deleted, or rewritten in place at the same size. It returns
// the path and its new text, or exists false when it was deleted.
func sourceEvent(r *rand.Rand, disk map[string]string) (p, text string, exists bool) {
	have := under(disk, "src/")
	switch k := r.IntN(4); {
	case k == 0 && len(have) > 0:
		return have[r.IntN(len(have))], "", false
	case k == 1 && len(have) > 0:
		// Same size, other bytes: only the file's times tell.
		p = have[r.IntN(len(have))]
		b := []byte(disk[p])
		i := r.IntN(len(b))
		b[i] = "xyz"[r.IntN(3)]
		if string(b) == disk[p] {
			b[i] = 'w'
		}
		return p, string(b), true
	case k == 2:
		return "src/missing.c", fmt.Sprintf("int m%d;\n", r.IntN(10)), true
	default:
		return fmt.Sprintf("src/sub/n%d.c", r.IntN(3)), fmt.Sprintf("int n%d;\n", r.IntN(10)), true
	}
}

// resultsEvent changes the JUnit files segtest.Evidence's seg.toml
// takes in (results/*.xml): one rewritten at the same size (a case
// renamed, a result flipped), rewritten with a case more or less,
// touched (the same bytes), created under the glob, or deleted. It
// returns the path and its new text, or exists false when it was
// deleted.
func resultsEvent(r *rand.Rand, disk map[string]string) (p, text string, exists bool) {
	have := under(disk, "results/")
	if len(have) == 0 || r.IntN(5) == 0 {
		p = fmt.Sprintf("results/run-%d.xml", r.IntN(3))
		return p, junit(r, 1+r.IntN(6)), true
	}
	p = have[r.IntN(len(have))]
	text = disk[p]
	switch r.IntN(5) {
	case 0:
		return p, "", false
	case 1:
		// Same size, other bytes: only the file's times tell.
		for _, pair := range [][2]string{{"case_1", "case_4"}, {"case_4", "case_1"}, {"case_0\"", "case_3\""}, {"boom", "bang"}, {"bang", "boom"}} {
			if strings.Contains(text, pair[0]) && r.IntN(2) == 0 {
				return p, strings.Replace(text, pair[0], pair[1], 1), true
			}
		}
		return p, strings.Replace(text, "2026-11-20", "2026-11-21", 1), true
	case 2:
		return p, text, true
	default:
		return p, junit(r, 1+r.IntN(6)), true
	}
}

// under lists the paths of disk that start with prefix, sorted.
func under(disk map[string]string, prefix string) []string {
	var out []string
	for p := range disk {
		if strings.HasPrefix(p, prefix) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// junit is a JUnit file of n cases in segtest.Evidence's style.
func junit(r *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<testsuites>\n  <testsuite name=\"suite\" timestamp=\"2026-11-20T10:00:00\">\n")
	for range n {
		fmt.Fprintf(&b, "    <testcase classname=\"suite\" name=\"case_%d\" time=\"0.1\"", r.IntN(6))
		switch r.IntN(5) {
		case 0:
			b.WriteString("/>\n")
		case 3, 4:
			// A case that names the requirements it verifies: a test
			// specification of its own (docs/results.md).
			prop := [...]string{"FullyVerifies", "PartiallyVerifies"}[r.IntN(2)]
			fmt.Fprintf(&b, "><properties><property name=%q value=\"R%d, R%d\"/></properties></testcase>\n", prop, r.IntN(4), r.IntN(4))
		case 1:
			b.WriteString("><failure message=\"boom\"/></testcase>\n")
		default:
			b.WriteString("><skipped/></testcase>\n")
		}
	}
	b.WriteString("  </testsuite>\n</testsuites>\n")
	return b.String()
}

// maps is the disk with the buffers' text over it.
func maps(disk, buffers map[string]string) map[string]string {
	out := make(map[string]string, len(disk)+len(buffers))
	for p, s := range disk {
		out[p] = s
	}
	for p, s := range buffers {
		out[p] = s
	}
	return out
}

func setDisk(t *testing.T, root string, disk map[string]string, p, text string, exists bool) {
	t.Helper()
	if !exists {
		delete(disk, p)
		os.Remove(filepath.Join(root, filepath.FromSlash(p)))
		return
	}
	disk[p] = text
	writeFiles(t, root, map[string]string{p: text})
}

// syncView makes the folder hold exactly files, writing only the files
// that differ from what it held after the last call (has, which it
// updates; the folder is written by nothing else).
func syncView(t *testing.T, root string, has, files map[string]string) {
	t.Helper()
	for p := range has {
		if _, ok := files[p]; !ok {
			if err := os.Remove(filepath.Join(root, filepath.FromSlash(p))); err != nil {
				t.Fatal(err)
			}
			delete(has, p)
		}
	}
	for p, text := range files {
		if old, ok := has[p]; !ok || old != text {
			writeFiles(t, root, map[string]string{p: text})
			has[p] = text
		}
	}
}

// The files a live check is given do not change: their parse is kept
// for the next run (an implementation's revision, which takes in its
// :source: files, is worked out on a copy).
func TestLiveKeepsParses(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"a.rst":   ".. sreq:: R\n   :id: R\n\n.. impl:: I\n   :id: I\n   :implements: R\n   :source: src/a.c\n",
		"src/a.c": "int x;\n",
	})
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	l := tr.Live(check.Options{})
	c1, err := l.Run(liveAt)
	if err != nil {
		t.Fatal(err)
	}
	n1, _ := c1.Graph.Lookup("I")
	rev1 := n1.Revision()
	writeFiles(t, root, map[string]string{"src/a.c": "int y;\n"})
	c2, err := l.Run(liveAt)
	if err != nil {
		t.Fatal(err)
	}
	n2, _ := c2.Graph.Lookup("I")
	_, want := fresh(t, root)
	if got := reports(t, c2); got != want {
		t.Errorf("after the source file changed, the live check is not the fresh one:\n%s", cmp.Diff(want, got))
	}
	if n2.Revision() == rev1 {
		t.Error("the implementation's revision did not take in its changed source file")
	}
	if n1.Revision() != rev1 || !slices.Equal([]string{c1.Parsed[0].Path}, []string{"a.rst"}) {
		t.Error("the first check changed")
	}
}

// The same over a sphinx-needs project (examples/needs: ubproject.toml,
// need types mapped in seg.toml, a JUnit file, needs of types seg does
// not map), where every run also goes through the post-processing of
// needs (needextend, dynamic functions, external needs).
func TestLiveIsRunNeeds(t *testing.T) {
	root := filepath.Join("..", "examples", "needs")
	disk := map[string]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		disk[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if len(disk) < 5 {
		t.Fatalf("examples/needs: %d files", len(disk))
	}
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	// Half the sessions also read the needs of another project (read anew
	// every run), which a local requirement satisfies.
	external := maps(disk, nil)
	external["ubproject.toml"] = strings.Replace(external["ubproject.toml"], "build_json = true\n",
		"build_json = true\nexternal_needs = [{ base_url = \"https://other.example\", json_path = \"../other/needs.json\" }]\n", 1)
	external["other/needs.json"] = `{"current_version": "1", "project": "Other", "versions": {"1": {"needs": {
  "OTHER_REQ": {"id": "OTHER_REQ", "type": "stkh_req", "title": "Theirs", "status": "open", "tags": [], "links": []}
}}}}`
	external["docs/system/requirements.rst"] = strings.Replace(external["docs/system/requirements.rst"],
		":satisfies: STKH_ONE_TOUCH\n", ":satisfies: STKH_ONE_TOUCH, OTHER_REQ\n", 1)
	if external["ubproject.toml"] == disk["ubproject.toml"] || external["docs/system/requirements.rst"] == disk["docs/system/requirements.rst"] {
		t.Fatal("examples/needs changed: the external needs are not set up")
	}
	// They also map links by the kinds at its ends and put an
	// implements link on a requirement, in reverse (docs/sphinx-needs.md,
	// "Mapping link types"): every run is then a full build, held to a
	// fresh check like the others.
	external["ubproject.toml"] += "\n[needs.links.satisfied_by]\noutgoing = \"satisfied by\"\n"
	external["seg.toml"] = strings.Replace(external["seg.toml"], "[needs.links]\n",
		"[needs.links]\nlinks = \"auto\"\nsatisfied_by = { edge = \"implements\", reverse = true }\n", 1)
	external["docs/software/requirements.rst"] = strings.Replace(external["docs/software/requirements.rst"],
		"         :satisfies: SYS_AUTO_CLOSE\n", "         :satisfies: SYS_AUTO_CLOSE\n         :satisfied_by: UNIT_MOTOR_DRIVER\n", 1)
	if !strings.Contains(external["seg.toml"], "reverse = true") || !strings.Contains(external["docs/software/requirements.rst"], ":satisfied_by:") {
		t.Fatal("examples/needs changed: the reverse mapping is not set up")
	}
	// The edits flip the fields the example's link conditions read: some
	// runs must find one that fails.
	// The sessions past seeds rename IDs in place and make links name
	// such IDs (segtest.Rename): a needextend that names an ID, and the
	// links and parents of needs, follow the rename.
	patched, runs, reached := sessions(t, seeds+seeds/2, func(t *testing.T, seed int, counted func(*check.Live), reached map[string]bool) {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		tree := disk
		if seed%2 == 1 && seed < seeds {
			tree = external
		}
		how := liveHow{cached: seed%2 == 0, settled: seed%4 >= 2 || seed >= seeds, renames: seed >= seeds, runs: counted}
		tree = maps(tree, nil)
		if seed%3 == 0 {
			// The test's condition [asil == "B"] fails from the start;
			// an edit may make it hold again.
			const b = ":id: SWR_PINCH_THRESHOLD\n         :status: approved\n         :asil: "
			if !strings.Contains(tree["docs/software/requirements.rst"], b+"B") {
				t.Fatal("examples/needs changed: SWR_PINCH_THRESHOLD has no :asil: B")
			}
			tree["docs/software/requirements.rst"] = strings.Replace(tree["docs/software/requirements.rst"], b+"B", b+"A", 1)
		}
		liveSession(t, r, tree, 25, how, reached)
	})
	if !reached[`"link-condition-failed"`] && !t.Failed() && !testing.Short() {
		t.Errorf("no run reached a link condition that fails")
	}
	// The patch of a sphinx-needs graph (need links, parents) is held to
	// a fresh check too: on a settled clock the JUnit file is kept and
	// some runs patch.
	if patched == 0 && !testing.Short() {
		t.Errorf("none of %d runs patched the last graph", runs)
	}
	t.Logf("%d of %d runs patched", patched, runs)
}

// sourcesTree has implementations naming a source file (a.rst), a folder
// (b.rst) and globs (d.rst), and a file without any (c.rst).
var sourcesTree = map[string]string{
	"a.rst":   ".. sreq:: R\n   :id: R\n\n.. impl:: IA\n   :id: IA\n   :implements: R\n   :source: src/a.c\n",
	"b.rst":   ".. impl:: IB\n   :id: IB\n   :implements: R\n   :source: src\n",
	"c.rst":   ".. sreq:: S\n   :id: S\n",
	"d.rst":   ".. impl:: ID\n   :id: ID\n   :implements: S\n   :source: src/*.h, src/gen/**/*.c\n",
	"src/a.c": "int a;\n",
	"src/b.c": "int b;\n",
}

// ahead is a clock an hour ahead of the files a test writes: every one
// counts as settled, and a live run trusts its identity.
func ahead() time.Time { return time.Now().Add(time.Hour) }

// clocks are the clocks the :source: stage of a live check runs on in
// the tests: the real one (every file just written is read again at
// every run) and one ahead.
var clocks = []struct {
	name string
	now  func() time.Time
}{{"now", nil}, {"settled", ahead}}

// liveSources starts a live check of the tree files under a new root,
// its :source: and results stages on clock now (nil: the real one), and
// returns the root and a run that checks each result against a fresh
// check.
func liveSources(t *testing.T, files map[string]string, now func() time.Time) (string, *check.Live, func(what string) *check.Check) {
	return liveWith(t, files, now, nil)
}

// liveWith is liveSources with the options opts gives for the root
// (nil: none), for the live check and the fresh ones alike.
func liveWith(t *testing.T, files map[string]string, now func() time.Time, opts func(root string) check.Options) (string, *check.Live, func(what string) *check.Check) {
	root := t.TempDir()
	writeFiles(t, root, files)
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	var o check.Options
	if opts != nil {
		o = opts(root)
	}
	l := tr.Live(o)
	if now != nil {
		check.SetSourceClock(l, now)
		check.SetResultsClock(l, now)
	}
	return root, l, func(what string) *check.Check {
		t.Helper()
		c, err := l.Run(liveAt)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		tr, err := check.Open(root, "")
		if err != nil {
			t.Fatal(err)
		}
		fo := o
		fo.At = liveAt
		want, _, err := tr.Run(fo)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(reports(t, want), reports(t, c)); diff != "" {
			t.Fatalf("%s: live (+) and fresh (-) checks differ:\n%s", what, diff)
		}
		return c
	}
}

// A live run redoes the :source: stage only for the files whose parse or
// whose source files changed: every other file is the very copy of the
// last run, nodes and all (the graph build knows an unchanged node by its
// address), whether or not the clock lets the run trust the files'
// identities.
func TestLiveKeepsSourceCopies(t *testing.T) {
	for _, clock := range clocks {
		t.Run(clock.name, func(t *testing.T) {
			root, l, run := liveSources(t, sourcesTree, clock.now)
			files := func(c *check.Check) map[string]*parser.File {
				out := map[string]*parser.File{}
				for _, f := range c.Parsed {
					out[f.Path] = f
				}
				return out
			}
			last := files(run("start"))
			step := func(what string, redone ...string) {
				t.Helper()
				now := files(run(what))
				for p, f := range now {
					same := f == last[p] && &f.Nodes[0] == &last[p].Nodes[0]
					if want := !slices.Contains(redone, p); same != want {
						t.Errorf("%s: %s the same copy as last run: %v, want %v", what, p, same, want)
					}
				}
				last = now
			}
			step("nothing changed")
			writeFiles(t, root, map[string]string{"c.rst": sourcesTree["c.rst"] + "\nMore text.\n"})
			l.Changed("c.rst")
			step("a file without implementations edited", "c.rst")
			writeFiles(t, root, map[string]string{"a.rst": sourcesTree["a.rst"] + "\n   More text.\n"})
			l.Changed("a.rst")
			step("a file with an implementation edited", "a.rst")
			writeFiles(t, root, map[string]string{"src/a.c": "int a = 1;\n"})
			step("src/a.c changed", "a.rst", "b.rst")
			writeFiles(t, root, map[string]string{"src/gen/x/y.c": "int y;\n"})
			step("src/gen/x/y.c created", "b.rst", "d.rst")
			step("nothing changed again")
		})
	}
}

// Source files are not watched: a live run sees every change on disk
// that a fresh run sees, of the content, of what a folder or a glob
// matches, of what can be read.
func TestLiveSeesSourceFiles(t *testing.T) {
	for _, clock := range clocks {
		t.Run(clock.name, func(t *testing.T) {
			root, _, run := liveSources(t, sourcesTree, clock.now)
			name := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
			revision := func(c *check.Check, id string) string {
				n, ok := c.Graph.Lookup(id)
				if !ok {
					t.Fatalf("no node %s", id)
				}
				return fmt.Sprint(n.Revision())
			}
			codes := func(c *check.Check) []string {
				var out []string
				for _, d := range c.Diagnostics {
					out = append(out, d.Code.Name+" "+c.Files.Position(d.Span.Start).String())
				}
				return out
			}
			c := run("start")
			if diff := cmp.Diff([]string{"missing-source d.rst:4:13", "missing-source d.rst:4:22"}, codes(c)); diff != "" {
				t.Fatalf("start (-want +got):\n%s", diff)
			}
			// step runs again and checks which implementations' revisions
			// moved.
			step := func(what string, moved ...string) *check.Check {
				t.Helper()
				next := run(what)
				for _, id := range []string{"IA", "IB", "ID"} {
					if got, want := revision(next, id) != revision(c, id), slices.Contains(moved, id); got != want {
						t.Errorf("%s: the revision of %s changed: %v, want %v", what, id, got, want)
					}
				}
				c = next
				return next
			}
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(name("src/a.c"), old, old); err != nil {
				t.Fatal(err)
			}
			step("src/a.c older")

			writeFiles(t, root, map[string]string{"src/a.c": "int z;\n"})
			if err := os.Chtimes(name("src/a.c"), old.Add(time.Second), old.Add(time.Second)); err != nil {
				t.Fatal(err)
			}
			step("src/a.c edited, same size", "IA", "IB")

			// Rewritten with its size and modification time as they were:
			// where the system has a change time, it tells.
			if rewriteInPlace(t, root, "src/a.c", func(i int) string { return fmt.Sprintf("int %c;\n", 'p'+i%8) }) {
				step("src/a.c rewritten, size and time as they were", "IA", "IB")
			}

			writeFiles(t, root, map[string]string{"src/sub/new.c": "int n;\n"})
			step("a file added under the folder src", "IB")

			writeFiles(t, root, map[string]string{"src/x.h": "int h;\n"})
			c = step("a file added under the glob src/*.h", "IB", "ID")
			if diff := cmp.Diff([]string{"missing-source d.rst:4:22"}, codes(c)); diff != "" {
				t.Errorf("with src/x.h (-want +got):\n%s", diff)
			}
			writeFiles(t, root, map[string]string{"src/gen/g.c": "int g;\n"})
			c = step("a file added under the glob src/gen/**/*.c", "IB", "ID")
			if diff := cmp.Diff([]string(nil), codes(c)); diff != "" {
				t.Errorf("with src/gen/g.c (-want +got):\n%s", diff)
			}
			if err := os.Remove(name("src/gen/g.c")); err != nil {
				t.Fatal(err)
			}
			c = step("src/gen/g.c deleted", "IB", "ID")
			if diff := cmp.Diff([]string{"missing-source d.rst:4:22"}, codes(c)); diff != "" {
				t.Errorf("src/gen/g.c deleted (-want +got):\n%s", diff)
			}

			if err := os.Remove(name("src/a.c")); err != nil {
				t.Fatal(err)
			}
			c = step("src/a.c deleted", "IA", "IB")
			if diff := cmp.Diff([]string{"missing-source a.rst:7:13", "missing-source d.rst:4:22"}, codes(c)); diff != "" {
				t.Errorf("src/a.c deleted (-want +got):\n%s", diff)
			}
			writeFiles(t, root, map[string]string{"src/a.c": "int z;\n"})
			step("src/a.c back", "IA", "IB")

			// A folder that cannot be listed: its files may be missing
			// from the revision of every implementation whose entry
			// reaches it.
			writeFiles(t, root, map[string]string{"src/locked/k.c": "int k;\n"})
			step("src/locked/k.c created", "IB")
			unlock := lock(t, root, "src/locked")
			c = step("src/locked unreadable", "IB")
			// (src/*.h walks src for files, so it reaches src/locked too.)
			want := []string{"unreadable-file b.rst:4:13", "unreadable-file d.rst:4:13", "missing-source d.rst:4:22"}
			if diff := cmp.Diff(want, codes(c)); diff != "" {
				t.Errorf("src/locked unreadable (-want +got):\n%s", diff)
			}
			unlock()
			step("src/locked readable again", "IB")
			step("nothing changed")
		})
	}
}

// rewriteInPlace writes text(i) to the file at p under root, for i = 0,
// 1, ... (texts of the file's size), with its modification time put back
// each time, until its change time moves; it reports false, writing
// nothing, where the system keeps no change time.
func rewriteInPlace(t *testing.T, root, p string, text func(i int) string) bool {
	t.Helper()
	name := filepath.Join(root, filepath.FromSlash(p))
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	ctime := check.ChangeTime(st)
	if ctime == 0 {
		return false
	}
	for i := 0; ; i++ {
		writeFiles(t, root, map[string]string{p: text(i)})
		if err := os.Chtimes(name, st.ModTime(), st.ModTime()); err != nil {
			t.Fatal(err)
		}
		now, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if check.ChangeTime(now) != ctime {
			return true
		}
		if i == 100 {
			t.Fatalf("the change time of %s does not move", p)
		}
		time.Sleep(10 * time.Millisecond) // the next tick of the file system's clock
	}
}

// lock makes the folder dir under root one that cannot be listed, until
// the function it returns is called: by its permissions, or for root,
// who lists every folder, through the tree the :source: stage reads.
func lock(t *testing.T, root, dir string) (unlock func()) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(dir))
	if os.Geteuid() != 0 {
		if err := os.Chmod(full, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(full, 0o755) })
		return func() {
			if err := os.Chmod(full, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	locked := true
	check.SetSourceTree(t, func(r string) glob.Tree {
		return lockedTree{glob.Dir(r), func(p string) bool { return locked && r == root && p == dir }}
	})
	return func() { locked = false }
}

// lockedTree fails to list the folders locked says, as the file system
// fails to list a folder it may not read.
type lockedTree struct {
	glob.Tree
	locked func(string) bool
}

func (l lockedTree) WalkDir(name string, fn fs.WalkDirFunc) error {
	return l.Tree.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && l.locked(p) {
			if err := fn(p, d, nil); err != nil {
				return err
			}
			if err := fn(p, d, fs.ErrPermission); err != nil {
				return err
			}
			return fs.SkipDir
		}
		return fn(p, d, err)
	})
}

// A live run takes the last run's seg.lock, the same pins, when the file
// holds the same bytes (and its graph build patches the last graph), and
// reads it again when a byte changed, though its size and times are what
// they were, or when it is gone.
func TestLiveLock(t *testing.T) {
	root := t.TempDir()
	disk := map[string]string{"a.rst": `.. sreq:: R
   :id: R1

.. impl:: I
   :id: I1
   :implements: R1

.. test:: T
   :id: T1
   :verifies: R1
`}
	writeFiles(t, root, disk)
	first, _ := fresh(t, root)
	var lock strings.Builder
	for e := range first.Graph.Edges() {
		fmt.Fprintf(&lock, "%s %s\n", first.Graph.Link(e), revision.String(first.Graph.To(e).Revision()))
	}
	// A pin of a link the tree lacks: its finding shows where it is.
	lock.WriteString("GONE verifies R0 0123456789abcdef\n")
	disk["seg.lock"] = lock.String()
	writeFiles(t, root, disk)
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	l := tr.Live(check.Options{})
	var last *check.Check
	run := func(what string, sameLock, patched bool) {
		t.Helper()
		c, err := l.Run(liveAt)
		if err != nil {
			t.Fatal(err)
		}
		if _, want := fresh(t, root); want != reports(t, c) {
			t.Fatalf("%s: live (+) and fresh (-) checks differ:\n%s", what, cmp.Diff(want, reports(t, c)))
		}
		if last != nil && (c.Lock == last.Lock) != sameLock {
			t.Errorf("%s: the run took the last run's seg.lock: %v, want %v", what, !sameLock, sameLock)
		}
		if check.Patched(l) != patched {
			t.Errorf("%s: the run patched the last graph: %v, want %v", what, !patched, patched)
		}
		last = c
	}
	edit := func() {
		t.Helper()
		disk["a.rst"] += "\nProse.\n"
		writeFiles(t, root, disk)
		l.Changed("a.rst")
	}
	run("start", false, false)
	if !last.Graph.HasPins() || slices.ContainsFunc(last.Diagnostics, func(d diag.Diagnostic) bool { return d.Code.Name == "stale-link" }) {
		t.Fatal("the start has no pins, or a stale one")
	}
	edit()
	run("edit", true, true)

	// One digit of a revision changes; the file keeps its size and times.
	name := filepath.Join(root, "seg.lock")
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	text := disk["seg.lock"]
	i := strings.IndexByte(text, '\n') - 1 // the first pin's revision's last digit
	digit := "0"
	if text[i] == '0' {
		digit = "1"
	}
	disk["seg.lock"] = text[:i] + digit + text[i+1:]
	writeFiles(t, root, disk)
	if err := os.Chtimes(name, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	run("seg.lock changed", false, false)
	if !slices.ContainsFunc(last.Diagnostics, func(d diag.Diagnostic) bool { return d.Code.Name == "stale-link" }) {
		t.Fatal("a pin to another revision is not stale")
	}
	edit()
	run("edit after", true, true)
	// A new file of the tree: seg.lock's place in the file set moves on.
	disk["b.rst"] = ".. sreq:: S\n   :id: R2\n"
	writeFiles(t, root, disk)
	l.Changed("b.rst")
	run("new file", false, false)
	edit()
	run("edit after the new file", true, true)
	delete(disk, "seg.lock")
	os.Remove(name)
	run("seg.lock gone", false, false)
	edit()
	run("edit without seg.lock", false, true)
}
