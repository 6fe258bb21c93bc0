package check_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/internal/randlock"
	"github.com/seg-trace/seg/internal/segtest"
	"github.com/seg-trace/seg/report"
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
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 7))
			disk := segtest.RandomTree(r).RSTFiles(r, 1+r.IntN(4))
			for range 3 {
				disk[fmt.Sprintf("extra/doc-%d.rst", r.IntN(3))] += segtest.NewNode(r)
			}
			segtest.Evidence(r, disk)
			liveSession(t, r, disk, steps, seed%2 == 1, reached)
		})
	}
}

// liveSession runs one session of edits on the tree disk (path ->
// content) and compares the live check with a fresh one after each.
func liveSession(t *testing.T, r *rand.Rand, disk map[string]string, steps int, cached bool, reached map[string]bool) {
	view := t.TempDir() // what the editor shows: the reference
	live := t.TempDir() // the disk the server reads, buffers aside
	writeFiles(t, view, disk)
	first, _ := fresh(t, view)
	disk["seg.lock"] = randlock.Lock(r, first, 5)
	writeFiles(t, view, disk)
	writeFiles(t, live, disk)

	tr, err := check.Open(live, "")
	if err != nil {
		t.Fatal(err)
	}
	var o check.Options
	if cached {
		o.Cache = cache.Open(t.TempDir(), "test", tr.Config.Parser)
	}
	l := tr.Live(o)
	buffers := map[string]string{}
	compare := func(step int, what string) {
		t.Helper()
		c, err := l.Run(liveAt)
		if err != nil {
			t.Fatalf("step %d (%s): %v", step, what, err)
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
		// The text the editor shows, edited.
		shown := maps(disk, buffers)
		p := segtest.Edit(r, shown)
		text, exists := shown[p]
		var what string
		switch _, open := buffers[p]; {
		case !strings.HasSuffix(p, ".rst") || !exists && !open:
			// Outside the editor: a source file, or a file deleted.
			what = "disk " + p
			setDisk(t, live, disk, p, text, exists)
			l.Changed(p)
		case open && r.IntN(4) == 0:
			what = "save " + p
			buffers[p] = text
			setDisk(t, live, disk, p, text, true)
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
			setDisk(t, live, disk, p, text, true)
			l.Changed(p)
		}
		syncView(t, view, maps(disk, buffers))
		compare(step, what)
	}
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

// syncView makes the folder hold exactly files.
func syncView(t *testing.T, root string, files map[string]string) {
	t.Helper()
	var have []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			have = append(have, filepath.ToSlash(rel))
		}
		return nil
	})
	for _, p := range have {
		if _, ok := files[p]; !ok {
			os.Remove(filepath.Join(root, filepath.FromSlash(p)))
		}
	}
	writeFiles(t, root, files)
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
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 11))
			liveSession(t, r, maps(disk, nil), 25, seed%2 == 0, map[string]bool{})
		})
	}
}
