package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seg-trace/seg/check"
)

// resultsTree takes outcomes from the JUnit files under results/ for the
// test specification in t.rst, witnessed by the implementation I.
var resultsTree = map[string]string{
	"seg.toml": "[[results]]\npath = \"results/*.xml\"\nwitnesses = [\"I\"]\n",
	"r.rst":    ".. sreq:: R\n   :id: R\n\n.. impl:: I\n   :id: I\n   :implements: R\n",
	"t.rst":    ".. test:: T\n   :id: T\n   :verifies: R\n   :cases: suite.a*, suite.none\n",
	"c.rst":    ".. sreq:: S\n   :id: S\n",
	"results/run.xml": `<?xml version="1.0"?>
<testsuites>
  <testsuite name="suite" timestamp="2026-11-20T10:00:00">
    <testcase classname="suite" name="a1" time="0.1"/>
    <testcase classname="suite" name="a2" time="0.1"><failure message="boom"/></testcase>
    <testcase classname="suite" name="b1" time="0.1"/>
  </testsuite>
</testsuites>
`,
}

// A live run whose results files, and what of the tree the results stage
// reads, are what they were gives the very outcome nodes of the last run
// (and so patches the last graph), with the no-results warnings moved
// where their patterns moved; any change of a results file on disk, of
// what the glob lists, of a :cases: pattern or of what the witness names
// reads the files again. On the real clock a file just written is read
// again every run: its identity cannot be trusted yet.
//
// The same holds of results files named on the command line (--results,
// --witness), which the language server may be started with.
func TestLiveKeepsResults(t *testing.T) {
	for _, cmdline := range []bool{false, true} {
		for _, clock := range clocks {
			t.Run(fmt.Sprintf("%s/cmdline=%v", clock.name, cmdline), func(t *testing.T) {
				liveKeepsResults(t, clock.now, cmdline)
			})
		}
	}
}

// liveResults starts a live check of the tree files as liveWith does,
// with the results files results/*.xml witnessing I named in the options
// when cmdline is set (else seg.toml names them).
func liveResults(t *testing.T, files map[string]string, now func() time.Time, cmdline bool) (string, *check.Live, func(what string) *check.Check) {
	if !cmdline {
		return liveWith(t, files, now, nil)
	}
	files = maps(files, nil)
	delete(files, "seg.toml")
	return liveWith(t, files, now, func(root string) check.Options {
		return check.Options{Results: []string{filepath.Join(root, "results", "*.xml")}, Witnesses: []string{"I"}}
	})
}

func liveKeepsResults(t *testing.T, now func() time.Time, cmdline bool) {
	settled := now != nil
	root, l, run := liveResults(t, resultsTree, now, cmdline)
	name := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	last := run("start")
	step := func(what string, kept bool) *check.Check {
		t.Helper()
		c := run(what)
		same := len(c.Outcomes) > 0 && len(last.Outcomes) > 0 && &c.Outcomes[0] == &last.Outcomes[0]
		if want := kept && settled; same != want {
			t.Errorf("%s: the outcomes of the last run kept: %v, want %v", what, same, want)
		}
		if want := kept && settled; check.Patched(l) != want {
			t.Errorf("%s: patched the last graph: %v, want %v", what, check.Patched(l), want)
		}
		last = c
		return c
	}
	edit := func(p, text string) {
		writeFiles(t, root, map[string]string{p: text})
		l.Changed(p)
	}
	noResults := func(c *check.Check) []string {
		var out []string
		for _, d := range c.Diagnostics {
			if d.Code.Name == "no-results" {
				out = append(out, c.Files.Position(d.Span.Start).String())
			}
		}
		return out
	}
	if len(last.Outcomes) != 2 || !slices.Equal(noResults(last), []string{"t.rst:4:22"}) {
		t.Fatalf("start: %d outcomes, no-results at %v", len(last.Outcomes), noResults(last))
	}
	step("nothing changed", true)
	edit("c.rst", resultsTree["c.rst"]+"\nMore text.\n")
	step("a file without tests edited", true)
	edit("t.rst", "\n\n"+resultsTree["t.rst"])
	if c := step("lines typed above the :cases: patterns", true); !slices.Equal(noResults(c), []string{"t.rst:6:22"}) {
		t.Errorf("no-results at %v, want t.rst:6:22", noResults(c))
	}
	edit("t.rst", strings.Replace(resultsTree["t.rst"], "suite.none", "suite.b1", 1))
	if c := step("a :cases: pattern changed", false); len(c.Outcomes) != 3 || noResults(c) != nil {
		t.Errorf("with suite.b1: %d outcomes, no-results at %v", len(c.Outcomes), noResults(c))
	}
	step("nothing changed again", true)
	// The tree's files come first in a run's file set: a file
	// more moves the results files' places, and they are read
	// again (the graph is built afresh anyway).
	edit("n.rst", ".. sreq:: N\n   :id: N\n")
	step("a file created", false)
	step("nothing changed after that", true)

	xml := resultsTree["results/run.xml"]
	st, err := os.Stat(name("results/run.xml"))
	if err != nil {
		t.Fatal(err)
	}
	old := st.ModTime().Add(-time.Hour)
	if err := os.Chtimes(name("results/run.xml"), old, old); err != nil {
		t.Fatal(err)
	}
	step("results/run.xml older, the same bytes", false)
	step("nothing changed after that", true)

	writeFiles(t, root, map[string]string{"results/run.xml": strings.Replace(xml, "boom", "bang", 1)})
	if err := os.Chtimes(name("results/run.xml"), old.Add(time.Second), old.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	step("results/run.xml rewritten, same size", false)
	step("nothing changed after that", true)

	// Rewritten with its size and modification time as they were:
	// where the system has a change time, it tells.
	if rewriteInPlace(t, root, "results/run.xml", func(i int) string {
		return strings.Replace(xml, "boom", fmt.Sprintf("bo%c%c", 'a'+i%26, 'a'+i/26%26), 1)
	}) {
		step("results/run.xml rewritten, size and time as they were", false)
		step("nothing changed after that", true)
	}

	writeFiles(t, root, map[string]string{"results/more.xml": strings.Replace(xml, `"a1"`, `"a3"`, 1)})
	if c := step("a file added under the glob", false); len(c.Outcomes) != 6 {
		t.Errorf("with results/more.xml: %d outcomes, want 6", len(c.Outcomes))
	}
	step("nothing changed after that", true)
	writeFiles(t, root, map[string]string{"results/notes.txt": "not results\n"})
	step("a file added beside the glob", true)
	if err := os.Remove(name("results/run.xml")); err != nil {
		t.Fatal(err)
	}
	step("a file deleted", false)
	step("nothing changed after that", true)

	// While the witness names no implementation, its diagnostic
	// lists the tree's implementations: read again every run.
	edit("r.rst", strings.Replace(resultsTree["r.rst"], ":id: I", ":id: J", 1))
	step("the witness gone", false)
	edit("c.rst", resultsTree["c.rst"])
	step("a file without tests edited, the witness gone", false)
	edit("r.rst", resultsTree["r.rst"])
	step("the witness back", false)
	step("nothing changed after that", true)

	if err := os.Remove(name("results/more.xml")); err != nil {
		t.Fatal(err)
	}
	c := step("the last file deleted", false)
	if len(c.Outcomes) != 0 {
		t.Errorf("no results file: %d outcomes", len(c.Outcomes))
	}
	writeFiles(t, root, map[string]string{"results/run.xml": xml})
	step("a file back", false)
}
