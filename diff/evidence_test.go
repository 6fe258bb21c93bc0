package diff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Evidence that counted at the base and not at the head is lost, with
// both positions and what became of it; evidence that is still counted
// (wherever it moved) is not; a requirement only one side has loses
// nothing; a side without evidence[] compares none.
func TestCompareLostEvidence(t *testing.T) {
	r := func(id string, ev ...Evidence) Requirement {
		x := req(id, "unproven")
		x.File, x.Line, x.Title, x.Evidence = "req.rst", 3, "T "+id, ev
		return x
	}
	base := &Evaluation{HasEvidence: true, HasGraph: true, Requirements: []Requirement{
		r("A", Evidence{Kind: "verifies", ID: "TA", File: "t.rst", Line: 5}, Evidence{Kind: "outcome", ID: "O1", Via: "TA", File: "t.rst", Line: 9}),
		r("B", Evidence{Kind: "verifies", ID: "TB", File: "t.rst", Line: 12}, Evidence{Kind: "implements", ID: "I", File: "i.rst", Line: 2}),
		r("C", Evidence{Kind: "verifies", ID: "TC", File: "t.rst", Line: 20}),
		r("GONE", Evidence{Kind: "verifies", ID: "TG", File: "t.rst", Line: 30}),
	}}
	head := &Evaluation{HasEvidence: true, HasGraph: true, Requirements: []Requirement{
		r("A", Evidence{Kind: "verifies", ID: "TA", File: "t.rst", Line: 50}), // moved: still counted
		r("B", Evidence{Kind: "verifies", ID: "TB", File: "t.rst", Line: 12}),
		r("C"),
	},
		Nodes: []Node{{ID: "TA"}, {ID: "O1", File: "t.rst", Line: 54}, {ID: "TB"}, {ID: "I"}},
		Edges: []Edge{{Type: "implements", From: "I", To: "B", State: "suspect", File: "i.rst", Line: 2}},
	}
	d := Compare(base, head)
	want := []Lost{
		{Requirement: "A", Title: "T A", Kind: "outcome", ID: "O1", Via: "TA", File: "t.rst", Line: 9, HeadFile: "t.rst", HeadLine: 54, Now: "not counted"},
		{Requirement: "B", Title: "T B", Kind: "implements", ID: "I", File: "i.rst", Line: 2, HeadFile: "i.rst", HeadLine: 2, Now: "not counted (suspect)"},
		{Requirement: "C", Title: "T C", Kind: "verifies", ID: "TC", File: "t.rst", Line: 20, HeadFile: "req.rst", HeadLine: 3, Now: "removed"},
	}
	if !cmp.Equal(d.Lost, want) || d.LostRequirements != 3 || !d.Compared.Evidence || !d.Failed() {
		t.Errorf("lost %d, compared %v:\n%s", d.LostRequirements, d.Compared.Evidence, cmp.Diff(want, d.Lost))
	}
	head.Nodes = append(head.Nodes, Node{ID: "TC"})
	if l := Compare(base, head).Lost[2]; l.Now != "link removed" {
		t.Errorf("a test still there without its link: %q", l.Now)
	}
	head.HasEvidence = false
	if d := Compare(base, head); len(d.Lost) != 0 || d.Compared.Evidence || d.LostRequirements != 0 {
		t.Errorf("without evidence on one side: %+v", d.Lost)
	}
}

// A coverage measure falls when the head's satisfied share is below the
// base's, compared exactly; per type only when there are several types.
func TestCompareCoverage(t *testing.T) {
	typed := func(id, kind, status string) Requirement {
		r := req(id, status)
		r.Kind = kind
		return r
	}
	base := &Evaluation{Requirements: []Requirement{typed("A", "sys", "satisfied"), typed("B", "sreq", "satisfied"), typed("C", "sreq", "satisfied"), typed("D", "sreq", "unproven")}}
	// sreq 2/3 → 4/6 is no fall; sys 1/1 → 1/2 is; all 3/4 → 5/8 is.
	head := &Evaluation{Requirements: []Requirement{typed("A", "sys", "satisfied"), typed("A2", "sys", "unproven"),
		typed("B", "sreq", "satisfied"), typed("C", "sreq", "satisfied"), typed("D", "sreq", "unproven"),
		typed("E", "sreq", "satisfied"), typed("F", "sreq", "satisfied"), typed("G", "sreq", "failing")}}
	d := Compare(base, head)
	var got []string
	for _, m := range d.Coverage {
		got = append(got, m.Name()+" "+map[bool]string{true: "fell", false: "held"}[m.Fell])
	}
	want := []string{"satisfied fell", "satisfied (sreq) held", "satisfied (sys) fell"}
	if !cmp.Equal(got, want) || d.Fell != 2 {
		t.Errorf("coverage %v (fell %d), want %v", got, d.Fell, want)
	}
	// One type: only the overall measure; an empty side: none.
	one := &Evaluation{Requirements: []Requirement{req("A", "satisfied")}}
	if d := Compare(one, one); len(d.Coverage) != 1 || d.Fell != 0 || d.Failed() {
		t.Errorf("one type: %+v", d.Coverage)
	}
	if d := Compare(&Evaluation{}, one); len(d.Coverage) != 0 {
		t.Errorf("empty base: %+v", d.Coverage)
	}
}

// A seg-check/1 document carries evidence[]; one written before it has
// none, and lost evidence is not compared.
func TestReadEvidence(t *testing.T) {
	with := `{"schema":"seg-check/1","at":"2026-11-29","requirements":[{"id":"A","kind":"sreq","verdict":"unsatisfied","status":"unproven","evidence":[{"kind":"verifies","id":"T","file":"t.rst","line":4}]}],"diagnostics":[]}`
	e, err := Read("with.json", strings.NewReader(with))
	if err != nil || !e.HasEvidence || len(e.Requirements[0].Evidence) != 1 || e.Requirements[0].Evidence[0].ID != "T" {
		t.Fatalf("%v %+v", err, e)
	}
	old := strings.Replace(with, `,"evidence":[{"kind":"verifies","id":"T","file":"t.rst","line":4}]`, "", 1)
	e, err = Read("old.json", strings.NewReader(old))
	if err != nil || e.HasEvidence {
		t.Fatalf("a document without evidence[]: %v %+v", err, e)
	}
}
