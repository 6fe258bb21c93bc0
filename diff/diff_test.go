package diff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func req(id, status string) Requirement {
	v := "unsatisfied"
	if status == "satisfied" {
		v = "satisfied"
	}
	return Requirement{ID: id, Kind: "sreq", Verdict: v, Status: status}
}

// Worse is a status that moved down satisfied > unproven > failing, or a
// new requirement that is failing; the changes list newly unsatisfied
// requirements first.
func TestCompareStatuses(t *testing.T) {
	base := &Evaluation{Requirements: []Requirement{
		req("A", "satisfied"), req("B", "unproven"), req("C", "failing"), req("D", "satisfied"), req("E", "satisfied"), req("G", "satisfied"),
	}}
	head := &Evaluation{Requirements: []Requirement{
		req("A", "unproven"), req("B", "failing"), req("C", "unproven"), req("D", "satisfied"), req("E", "failing"),
		req("N1", "failing"), req("N2", "unproven"),
	}}
	d := Compare(base, head)
	var got []string
	for _, c := range d.Requirements.Changed {
		got = append(got, c.ID+":"+c.From+">"+c.To)
	}
	want := []string{"A:satisfied>unproven", "E:satisfied>failing", "B:unproven>failing", "C:failing>unproven"}
	if !cmp.Equal(got, want) {
		t.Errorf("changed %v, want %v", got, want)
	}
	if d.Worse != 4 { // A, E, B, and the new failing N1
		t.Errorf("worse %d", d.Worse)
	}
	if len(d.Requirements.Removed) != 1 || d.Requirements.Removed[0].ID != "G" || len(d.Requirements.Added) != 2 {
		t.Errorf("added %v removed %v", d.Requirements.Added, d.Requirements.Removed)
	}
	if d.Compared.Diagnostics || d.Compared.Links {
		t.Errorf("compared %+v without diagnostics or graphs", d.Compared)
	}
}

// A document written before the three values has verdicts only: a change
// between failing and unproven is then no change.
func TestCompareWithoutStatus(t *testing.T) {
	old := &Evaluation{Requirements: []Requirement{{ID: "A", Verdict: "unsatisfied"}, {ID: "B", Verdict: "satisfied"}}}
	now := &Evaluation{Requirements: []Requirement{req("A", "failing"), req("B", "unproven")}}
	d := Compare(old, now)
	if len(d.Requirements.Changed) != 1 || d.Requirements.Changed[0].ID != "B" || d.Worse != 1 {
		t.Errorf("%+v", d.Requirements.Changed)
	}
}

// Diagnostics are matched by code, severity, file and message, as many
// times as they occur: a line moved is no change, a second copy is new.
func TestCompareDiagnostics(t *testing.T) {
	dg := func(msg string, line int) Diagnostic {
		return Diagnostic{Code: "unresolved-link", Severity: "error", Message: msg, File: "a.rst", Line: line, Column: 3}
	}
	base := &Evaluation{HasDiagnostics: true, Diagnostics: []Diagnostic{dg("x", 1), dg("y", 5), dg("y", 9)}}
	head := &Evaluation{HasDiagnostics: true, Diagnostics: []Diagnostic{dg("x", 3), dg("x", 4), dg("y", 12), dg("z", 20)}}
	d := Compare(base, head)
	lines := func(ds []Diagnostic) (out []string) {
		for _, x := range ds {
			out = append(out, x.Message+":"+strings.Repeat("I", x.Line%5))
		}
		return out
	}
	if got := lines(d.Diagnostics.New); !cmp.Equal(got, []string{"x:IIII", "z:"}) {
		t.Errorf("new %v", got)
	}
	if got := lines(d.Diagnostics.Fixed); !cmp.Equal(got, []string{"y:IIII"}) {
		t.Errorf("fixed %v", got)
	}
	if *d.Head.Summary.Errors != 4 {
		t.Errorf("head errors %d", *d.Head.Summary.Errors)
	}
}

// Links are matched by type and ends; a state that changed is one change,
// not a removal and an addition.
func TestCompareLinks(t *testing.T) {
	e := func(from, to, state string) Edge { return Edge{Type: "verifies", From: from, To: to, State: state} }
	base := &Evaluation{HasGraph: true, Edges: []Edge{e("T1", "R1", "active"), e("T2", "R1", "active"), e("T3", "R1", "active")}}
	head := &Evaluation{HasGraph: true, Edges: []Edge{e("T1", "R1", "suspect"), e("T2", "R1", "active"), e("T2", "R1", "active"), e("T4", "R1", "active")}}
	d := Compare(base, head)
	if len(d.Links.Changed) != 1 || d.Links.Changed[0].Edge.From != "T1" || d.Links.Changed[0].From != "active" || d.Links.Changed[0].State != "suspect" {
		t.Errorf("changed %+v", d.Links.Changed)
	}
	if len(d.Links.Added) != 2 || len(d.Links.Removed) != 1 || d.Links.Removed[0].From != "T3" {
		t.Errorf("added %+v removed %+v", d.Links.Added, d.Links.Removed)
	}
}

// Node text is compared by fingerprint when both sides have the same kind
// of fingerprint, else by title.
func TestCompareText(t *testing.T) {
	n := func(id, title, text string) Node { return Node{ID: id, Kind: "requirement", Title: title, Text: text} }
	base := &Evaluation{HasGraph: true, TextKind: "content", Nodes: []Node{n("A", "a", "1"), n("B", "b", "2")}}
	head := &Evaluation{HasGraph: true, TextKind: "content", Nodes: []Node{n("A", "a", "9"), n("B", "b2", "2")}}
	d := Compare(base, head)
	if len(d.Nodes.TextChanged) != 1 || d.Nodes.TextChanged[0].ID != "A" || d.Compared.Text != "content" {
		t.Errorf("by content: %+v %q", d.Nodes.TextChanged, d.Compared.Text)
	}
	head.TextKind = "revision"
	d = Compare(base, head)
	if len(d.Nodes.TextChanged) != 1 || d.Nodes.TextChanged[0].ID != "B" || d.Compared.Text != "title" {
		t.Errorf("by title: %+v %q", d.Nodes.TextChanged, d.Compared.Text)
	}
}

func TestReadRefuses(t *testing.T) {
	for doc, want := range map[string]string{
		`[]`:                          "not a JSON document seg wrote",
		`{"at": "x"}`:                 "no \"schema\"",
		`{"schema": "seg-explain/1"}`: "is not one seg diff reads",
		`{"schema": "seg-check/1", "requirements": [{"id": "A", "verdict": "maybe"}]}`: "no verdict seg writes",
		`{"schema": "seg-check/1", "requirements": [{"verdict": "satisfied"}]}`:        "has no id",
		`{"schema": "seg-check/1", "requirements": 3}`:                                 "bad seg-check/1 document",
		// Part of a tree: what it leaves out would pass as removed.
		`{"schema": "seg-check/1", "narrowed": ["filter"], "requirements": []}`: "shows part of its tree (narrowed by filter)",
		`{"schema": "seg-graph/1", "narrowed": ["filter"], "nodes": []}`:        "shows part of its tree",
	} {
		if _, err := Read("x.json", strings.NewReader(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", doc, err, want)
		}
	}
}
