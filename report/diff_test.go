package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diff"
)

// diffPair evaluates testdata/diff/base and testdata/diff/head.
func diffPair(t *testing.T) (*check.Check, *check.Check) {
	t.Helper()
	return checkOfDir(t, "testdata/diff/base"), checkOfDir(t, "testdata/diff/head")
}

func renderDiff(t *testing.T, d *diff.Diff, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "txt":
		err = WriteDiffText(&buf, d, false)
	case "json":
		err = WriteDiffJSON(&buf, d)
	case "md":
		err = WriteDiffMarkdown(&buf, d)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The base and head trees change in every way a diff reports: a
// requirement newly failing (and its parent with it), one unproven
// because its test link became suspect, one removed, one added
// unproven, one added failing, one fixed; a body changed; links added,
// removed and changed in state; a warning fixed and an error new.
func TestDiffGolden(t *testing.T) {
	base, head := diffPair(t)
	d := diff.Compare(Evaluation(base, "main"), Evaluation(head, "work tree"))
	for _, f := range []string{"txt", "json", "md"} {
		golden(t, filepath.Join("testdata", "diff", "diff."+f), renderDiff(t, d, f))
	}
	if d.Worse != 4 { // SREQ-1, SREQ-2, SYS-1 got worse; SREQ-6 is new and failing
		t.Errorf("worse %d, want 4", d.Worse)
	}
	var ids []string
	for _, c := range d.Requirements.Changed {
		ids = append(ids, fmt.Sprintf("%s %s→%s %v", c.ID, c.From, c.To, c.Worse))
	}
	want := []string{"SREQ-1 satisfied→failing true", "SREQ-2 satisfied→unproven true", "SYS-1 satisfied→failing true", "SREQ-5 unproven→satisfied false"}
	if !cmp.Equal(ids, want) {
		t.Errorf("changed %q, want %q (newly unsatisfied first)", ids, want)
	}
	var text []string
	for _, n := range d.Nodes.TextChanged {
		text = append(text, n.ID)
	}
	// SREQ-2's body, TS-2's link state (no: links are not text), OUT-1's
	// result; TS-5 is new.
	if !cmp.Equal(text, []string{"OUT-1", "SREQ-2"}) {
		t.Errorf("text changed %v", text)
	}
}

// No change is no regression, in every format.
func TestDiffSame(t *testing.T) {
	base, _ := diffPair(t)
	d := diff.Compare(Evaluation(base, "a"), Evaluation(base, "b"))
	if d.Worse != 0 || len(d.Requirements.Changed)+len(d.Requirements.Added)+len(d.Requirements.Removed)+
		len(d.Diagnostics.New)+len(d.Diagnostics.Fixed)+len(d.Links.Added)+len(d.Links.Removed)+len(d.Nodes.TextChanged) != 0 {
		t.Errorf("a tree against itself: %+v", d)
	}
	golden(t, filepath.Join("testdata", "diff", "same.md"), renderDiff(t, d, "md"))
}

// A diff of the documents seg check and seg graph write is the diff of
// the runs: the JSON files carry everything the comparison reads (node
// text aside, which they carry as titles until seg graph writes
// revisions).
func TestDiffFromDocuments(t *testing.T) {
	base, head := diffPair(t)
	side := func(c *check.Check, name string, withGraph bool) *diff.Evaluation {
		var cj, gj bytes.Buffer
		if err := WriteJSONWith(&cj, c, TextOptions{Evidence: true}); err != nil {
			t.Fatal(err)
		}
		e, err := diff.Read(name+".json", &cj)
		if err != nil {
			t.Fatal(err)
		}
		if !withGraph {
			return e
		}
		if err := WriteGraphJSON(&gj, c); err != nil {
			t.Fatal(err)
		}
		g, err := diff.Read(name+"-graph.json", &gj)
		if err != nil {
			t.Fatal(err)
		}
		m, err := diff.Merge(e, g)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	run := diff.Compare(Evaluation(base, "base"), Evaluation(head, "head"))
	docs := diff.Compare(side(base, "base", true), side(head, "head", true))
	if d := cmp.Diff(run.Requirements, docs.Requirements); d != "" {
		t.Errorf("requirements differ (-run +documents):\n%s", d)
	}
	if d := cmp.Diff(run.Diagnostics, docs.Diagnostics); d != "" {
		t.Errorf("diagnostics differ (-run +documents):\n%s", d)
	}
	if d := cmp.Diff(run.Links, docs.Links); d != "" {
		t.Errorf("links differ (-run +documents):\n%s", d)
	}
	// Both sides compare node text by revision: the run's nodes and
	// seg graph's "revision" are the same fingerprint.
	if d := cmp.Diff(run.Nodes.TextChanged, docs.Nodes.TextChanged); d != "" {
		t.Errorf("changed node text differs (-run +documents):\n%s", d)
	}
	if run.Worse != docs.Worse || docs.Compared.Text != "revision" || run.Compared.Text != "revision" {
		t.Errorf("worse %d/%d, text compared by %q/%q", run.Worse, docs.Worse, run.Compared.Text, docs.Compared.Text)
	}
	// seg-check/1 alone: no links, and the report says so.
	checkOnly := diff.Compare(side(base, "base", false), side(head, "head", false))
	if checkOnly.Compared.Links || len(checkOnly.Links.Added) != 0 || checkOnly.Worse != run.Worse {
		t.Errorf("check documents only: %+v", checkOnly.Compared)
	}
	if txt := renderDiff(t, checkOnly, "txt"); !bytes.Contains(txt, []byte("not compared: links and node text")) {
		t.Errorf("the text report does not say links were not compared:\n%s", txt)
	}
}

// The JSON document validates against its published schema.
func TestDiffSchema(t *testing.T) {
	base, head := diffPair(t)
	c := jsonschema.NewCompiler()
	sch, err := c.Compile("../diff/seg-diff-1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*diff.Diff{
		diff.Compare(Evaluation(base, "main"), Evaluation(head, "work tree")),
		diff.Compare(Evaluation(head, "a"), Evaluation(base, "b")),
	} {
		var v any
		if err := json.Unmarshal(renderDiff(t, d, "json"), &v); err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("seg-diff/1 output does not validate: %v", err)
		}
	}
}

// A Markdown comment shows its first 50 lines open and folds the rest
// into <details>, whatever the number of changes; past GitHub's comment
// size it leaves rows out and says how many.
func TestDiffMarkdownFolds(t *testing.T) {
	base := &diff.Evaluation{Label: "base", At: "2026-11-29", HasDiagnostics: true}
	head := &diff.Evaluation{Label: "head", At: "2026-11-29", HasDiagnostics: true}
	for i := range 3000 {
		id := fmt.Sprintf("SREQ-%04d", i)
		base.Requirements = append(base.Requirements, diff.Requirement{ID: id, Kind: "sreq", Title: "A requirement", File: "docs/r.rst", Line: i + 1, Verdict: "satisfied", Status: "satisfied"})
		r := base.Requirements[i]
		if i%2 == 0 {
			r.Verdict, r.Status = "unsatisfied", "failing"
			r.Reasons = []diff.Reason{{Code: "outcome-failed", Message: "outcome failed", File: "docs/o.rst", Line: i, Column: 1}}
		}
		head.Requirements = append(head.Requirements, r)
	}
	var buf bytes.Buffer
	if err := WriteDiffMarkdown(&buf, diff.Compare(base, head)); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	open, _, _ := strings.Cut(md, "<details>")
	if n := strings.Count(open, "\n"); n > MarkdownLines {
		t.Errorf("%d lines before the first <details>, want at most %d", n, MarkdownLines)
	}
	if !strings.Contains(md, "| `SREQ-0000` A requirement | satisfied | **failing** |") {
		t.Error("the first regression is not shown open")
	}
	if len(md) > 65536 || !strings.Contains(md, "more rows are left out") {
		t.Errorf("%d bytes; the size note is missing or the comment is too long", len(md))
	}
	if strings.Count(md, "<details>") != strings.Count(md, "</details>") {
		t.Error("unbalanced <details>")
	}
}
