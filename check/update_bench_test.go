package check

import (
	"bytes"
	"reflect"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
)

// BenchmarkEvaluateAfterEdit evaluates $SEG_BENCH_TREE after one test's
// :verifies: link was broken in its file's buffer: in full
// (evaluate.EvaluateWith) and reusing the evaluation before the edit
// (evaluate.Update), what the language server pays for the evaluation
// after a didChange. The nodes Update is told changed are those the
// patched graph build names (graph.Memo.Changed), or where the build was
// not a patch, every node of the edited file and every node an edge
// joins to one of them, in either graph.
func BenchmarkEvaluateAfterEdit(b *testing.B) {
	t, _ := benchTree(b)
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	l := t.Live(Options{})
	before, err := l.Run(at)
	if err != nil {
		b.Fatal(err)
	}
	// The first file, in path order, with a test that verifies something.
	verifies := regexp.MustCompile(`(?m)^(\s+:verifies:\s+)(\S+?)(,|\s*$)`)
	var path string
	var text []byte
	var paths []string
	for p := range l.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, f := range paths {
		if src := f2text(before, f); verifies.Match(src) {
			path, text = f, src
			break
		}
	}
	if path == "" {
		b.Skip("no test in the tree verifies anything")
	}
	loc := verifies.FindSubmatchIndex(text)
	edited := slices.Concat(text[:loc[5]], []byte("-gone"), text[loc[5]:])
	l.SetText(path, edited)
	after, err := l.Run(at)
	if err != nil {
		b.Fatal(err)
	}
	prevGraph, g := before.Graph, after.Graph
	d, how := l.memo.graph.Delta(), "the nodes the patched build names"
	if !d.Valid() || d.Base() != prevGraph {
		d, how = graph.Diff(prevGraph, g), "the nodes that differ in value"
	}
	changed := d.Changed()
	o := evaluate.Options{At: at, MaxAgeDays: t.Config.MaxAgeDays, RequirePins: t.Config.RequirePins, WaiverWarnDays: t.Config.WaiverWarnDays}

	// The update says what the full evaluation says.
	full, upd := evaluate.EvaluateWith(g, o), evaluate.Update(g, o, before.Result, d)
	if !reflect.DeepEqual(full.Diagnostics, upd.Diagnostics) || len(full.Verdicts) != len(upd.Verdicts) {
		b.Fatal("Update and EvaluateWith differ")
	}
	// A verdict decided again holds g's nodes, one kept prevGraph's.
	reused, redone := 0, 0
	for i, v := range full.Verdicts {
		u := upd.Verdicts[i]
		if v.ID != u.ID || v.Satisfied != u.Satisfied || v.Status != u.Status || !slices.Equal(v.Reasons, u.Reasons) {
			b.Fatalf("%s: Update and EvaluateWith differ", v.ID)
		}
		var links []evaluate.Link
		links = append(append(append(links, u.Refines...), u.RefinedBy...), u.Implements...)
		for _, te := range u.Verifies {
			links = append(links, te.Link)
		}
		switch {
		case len(links) == 0:
		case links[0].Node == prevGraph.Node(links[0].Node.Index()):
			reused++
		default:
			redone++
		}
	}
	if reused == 0 {
		b.Fatal("Update reused nothing: it evaluated in full")
	}
	b.Logf("%s: %d nodes, %d changed (%s); of %d verdicts with evidence, %d kept, %d decided again", path, g.Len(), len(changed), how, reused+redone, reused, redone)

	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			evaluate.EvaluateWith(g, o)
		}
	})
	b.Run("update", func(b *testing.B) {
		for b.Loop() {
			evaluate.Update(g, o, before.Result, d)
		}
	})
}

// f2text is the text of the tree's file at path, as c parsed it.
func f2text(c *Check, path string) []byte {
	for _, f := range c.Parsed {
		if f.Path == path && f.Source != nil {
			return bytes.Clone(f.Source.Source())
		}
	}
	return nil
}
