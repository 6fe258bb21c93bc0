package evaluate_test

import (
	"testing"
	"time"

	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
)

var at = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

func verdicts(t *testing.T, tr *segtest.Tree) map[string]evaluate.Verdict {
	t.Helper()
	g, _ := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
	res := evaluate.Evaluate(g, at)
	m := map[string]evaluate.Verdict{}
	for _, v := range res.Verdicts {
		m[v.ID] = v
	}
	return m
}

// satisfiedLeaf is the smallest tree in which leaf R is satisfied; each
// case below changes exactly one thing.
func satisfiedLeaf() *segtest.Tree {
	tr := &segtest.Tree{}
	tr.Req("R", "")
	tr.Test("T", "R")
	tr.Impl("I", "R")
	tr.Outcome("O", "T", "I", "passed")
	return tr
}

func TestLeafRuleClauses(t *testing.T) {
	cases := []struct {
		name     string
		build    func() *segtest.Tree
		want     bool
		wantCode string // a blocking reason that must be present when unsatisfied
	}{
		{"baseline", satisfiedLeaf, true, ""},
		{"clause 1: only a suspect verifies edge", func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("R", "")
			tr.Test("T", "R (suspect)")
			tr.Impl("I", "R")
			tr.Outcome("O", "T", "I", "passed")
			return tr
		}, false, "no-active-verifies"},
		{"clause 1: no verifies edge at all", func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("R", "")
			tr.Test("T", "")
			tr.Impl("I", "R")
			tr.Outcome("O", "T", "I", "passed")
			return tr
		}, false, "no-active-verifies"},
		{"clause 2: only a retired implements edge", func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("R", "")
			tr.Test("T", "R")
			tr.Impl("I", "R (retired)")
			tr.Outcome("O", "T", "I", "passed")
			return tr
		}, false, "no-active-implements"},
		{"clause 3: a second, suspect-linked test without outcomes", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Test("T2", "R (suspect)")
			return tr
		}, false, "no-confirming-outcome"},
		{"clause 3 holds: the suspect-linked test has a passing outcome", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Test("T2", "R (suspect)")
			tr.Outcome("O2", "T2", "I", "passed")
			return tr
		}, true, ""},
		{"clause 3: every run skipped", func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("R", "")
			tr.Test("T", "R")
			tr.Impl("I", "R")
			tr.Outcome("O", "T", "I", "skipped")
			return tr
		}, false, "no-confirming-outcome"},
		{"clause 3: the only outcome is unwitnessed (SEG-SREQ-355)", func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("R", "")
			tr.Test("T", "R")
			tr.Impl("I", "R")
			tr.Outcome("O", "T", "", "passed")
			return tr
		}, false, "no-confirming-outcome"},
		{"skipped adds nothing and takes nothing away", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "skipped")
			return tr
		}, true, ""},
		{"clause 4: a failed confirming outcome", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "failed")
			return tr
		}, false, "outcome-failed"},
		{"clause 4: an error outcome", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "error")
			return tr
		}, false, "outcome-failed"},
		{"clause 4 holds: the failure is unwitnessed, so not evidence", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "", "failed")
			return tr
		}, true, ""},
		{"clause 4 holds: the failure is excused by a waiver in force", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "failed")
			tr.Waiver("W", "O2", "2026-12-31")
			return tr
		}, true, ""},
		{"waiver expiring on the evaluation date still excuses", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "failed")
			tr.Waiver("W", "O2", "2026-11-29")
			return tr
		}, true, ""},
		{"clause 4: the waiver expired the day before", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "failed")
			tr.Waiver("W", "O2", "2026-11-28")
			return tr
		}, false, "outcome-failed"},
		{"a waiver without expiry excuses for ever", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "failed")
			tr.Waiver("W", "O2", "")
			return tr
		}, true, ""},
		{"a waiver with an invalid date excuses nothing", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "failed")
			tr.Waiver("W", "O2", "2026-02-30")
			return tr
		}, false, "outcome-failed"},
		{"an invalid result is never evidence", func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("R", "")
			tr.Test("T", "R")
			tr.Impl("I", "R")
			tr.Outcome("O", "T", "I", "pased")
			return tr
		}, false, "outcome-invalid"},
		{"a missing result is never evidence, even waived", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "")
			tr.Waiver("W", "O2", "")
			return tr
		}, false, "outcome-invalid"},
		{"an outcome confirming another test does not count", func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("R", "")
			tr.Test("T", "R")
			tr.Test("T2", "")
			tr.Impl("I", "R")
			tr.Outcome("O", "T2", "I", "passed")
			return tr
		}, false, "no-confirming-outcome"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := c.build()
			v := verdicts(t, tr)["R"]
			if v.Satisfied != c.want {
				t.Fatalf("R satisfied = %v, want %v\nreasons: %+v\ntree:\n%s", v.Satisfied, c.want, v.Reasons, tr)
			}
			if !c.want && !hasCode(v.Blocking(), c.wantCode) {
				t.Errorf("missing blocking reason %q in %+v", c.wantCode, v.Reasons)
			}
			if c.want && len(v.Blocking()) != 0 {
				t.Errorf("satisfied with blocking reasons %+v", v.Blocking())
			}
			for _, r := range v.Reasons {
				if !r.Pos.IsValid() || r.Code == nil || r.Message == "" {
					t.Errorf("reason without position, code or message: %+v", r)
				}
			}
		})
	}
}

func hasCode(rs []evaluate.Reason, code string) bool {
	for _, r := range rs {
		if r.Code.Name == code {
			return true
		}
	}
	return false
}

func satisfiedParent() *segtest.Tree {
	tr := &segtest.Tree{}
	tr.Req("P", "")
	tr.Req("C1", "P")
	tr.Req("C2", "P")
	for _, c := range []string{"C1", "C2"} {
		tr.Test("T"+c, c)
		tr.Impl("I"+c, c)
		tr.Outcome("O"+c, "T"+c, "I"+c, "passed")
	}
	return tr
}

func TestNonLeafRuleClauses(t *testing.T) {
	cases := []struct {
		name     string
		build    func() *segtest.Tree
		want     bool
		wantCode string
	}{
		{"baseline", satisfiedParent, true, ""},
		{"clause 1: a child is unsatisfied", func() *segtest.Tree {
			tr := satisfiedParent()
			tr.Outcome("X", "TC2", "IC2", "failed")
			return tr
		}, false, "child-unsatisfied"},
		{"clause 2: a suspect verifies edge on the parent", func() *segtest.Tree {
			tr := satisfiedParent()
			tr.Test("TP", "P (suspect)")
			return tr
		}, false, "inactive-edge"},
		{"clause 2: a retired implements edge on the parent", func() *segtest.Tree {
			tr := satisfiedParent()
			tr.Impl("IP", "P (retired)")
			return tr
		}, false, "inactive-edge"},
		{"the parent's own failing outcomes do not count", func() *segtest.Tree {
			tr := satisfiedParent()
			tr.Test("TP", "P")
			tr.Impl("IP", "P")
			tr.Outcome("OP", "TP", "IP", "failed")
			return tr
		}, true, ""},
		{"a parent needs no tests of its own", func() *segtest.Tree {
			tr := satisfiedParent()
			tr.Test("TP", "P")
			return tr
		}, true, ""},
		{"a cycle below makes the parent unsatisfied", func() *segtest.Tree {
			tr := satisfiedParent()
			tr.Req("A", "C1, B")
			tr.Req("B", "A")
			return tr
		}, false, "child-unsatisfied"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := c.build()
			v := verdicts(t, tr)["P"]
			if v.Leaf {
				t.Fatal("P should be a non-leaf")
			}
			if v.Satisfied != c.want {
				t.Fatalf("P satisfied = %v, want %v\nreasons: %+v\ntree:\n%s", v.Satisfied, c.want, v.Reasons, tr)
			}
			if !c.want && !hasCode(v.Blocking(), c.wantCode) {
				t.Errorf("missing blocking reason %q in %+v", c.wantCode, v.Reasons)
			}
		})
	}
}

func TestCycles(t *testing.T) {
	tr := &segtest.Tree{}
	tr.Req("TOP", "")
	tr.Req("A", "TOP, B")
	tr.Req("B", "A")
	tr.Req("SELF", "SELF")
	tr.Req("LEAF", "A")
	tr.Test("T", "LEAF")
	tr.Impl("I", "LEAF")
	tr.Outcome("O", "T", "I", "passed")
	g, diags := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
	res := evaluate.Evaluate(g, at)
	got := map[string]bool{}
	for _, v := range res.Verdicts {
		got[v.ID] = v.Satisfied
	}
	want := map[string]bool{"TOP": false, "A": false, "B": false, "SELF": false, "LEAF": true}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s satisfied = %v, want %v", id, got[id], w)
		}
	}
	cycles := 0
	for _, d := range diags {
		if d.Code.Name == "refinement-cycle" {
			cycles++
		}
	}
	if cycles != 2 {
		t.Errorf("want 2 refinement-cycle diagnostics (A-B and SELF), got %d: %+v", cycles, diags)
	}
}

// The three values (revisions.md): failing spreads upward from a leaf
// whose counted outcome failed, through cycles too; every other
// unsatisfied requirement is unproven.
func TestStatus(t *testing.T) {
	cases := []struct {
		name  string
		build func() *segtest.Tree
		want  map[string]evaluate.Status
	}{
		{"satisfied", satisfiedLeaf, map[string]evaluate.Status{"R": evaluate.Satisfied}},
		{"a failed outcome", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "failed")
			return tr
		}, map[string]evaluate.Status{"R": evaluate.Failing}},
		{"an error outcome", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "error")
			return tr
		}, map[string]evaluate.Status{"R": evaluate.Failing}},
		{"an excused failure", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "failed")
			tr.Waiver("W", "O2", "")
			return tr
		}, map[string]evaluate.Status{"R": evaluate.Satisfied}},
		{"an unwitnessed failure is no evidence", func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("R", "")
			tr.Test("T", "R")
			tr.Impl("I", "R")
			tr.Outcome("O", "T", "", "failed")
			return tr
		}, map[string]evaluate.Status{"R": evaluate.Unproven}},
		{"an invalid outcome is unproven", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "bogus")
			return tr
		}, map[string]evaluate.Status{"R": evaluate.Unproven}},
		{"failing and unproven together", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "failed")
			tr.Test("T2", "R")
			return tr
		}, map[string]evaluate.Status{"R": evaluate.Failing}},
		{"no evidence", func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("R", "")
			return tr
		}, map[string]evaluate.Status{"R": evaluate.Unproven}},
		{"failing spreads upward, unproven does not", func() *segtest.Tree {
			tr := satisfiedLeaf()
			tr.Outcome("O2", "T", "I", "failed")
			tr.Req("P", "")
			tr.Req("GP", "")
			tr.Req("U", "GP") // an unproven sibling
			tr.Nodes[0].Options = append(tr.Nodes[0].Options, segtest.Links("refines", "P"))
			tr.Req("Q", "GP")
			tr.Req("L2", "Q")
			return tr
		}, map[string]evaluate.Status{"R": evaluate.Failing, "P": evaluate.Failing, "L2": evaluate.Unproven, "Q": evaluate.Unproven, "U": evaluate.Unproven, "GP": evaluate.Unproven}},
		{"through a cycle", func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("A", "B")
			tr.Req("B", "A, TOP")
			tr.Req("TOP", "")
			tr.Req("L", "A")
			tr.Test("T", "L")
			tr.Impl("I", "L")
			tr.Outcome("O", "T", "I", "failed")
			tr.Req("C", "D")
			tr.Req("D", "C")
			return tr
		}, map[string]evaluate.Status{"L": evaluate.Failing, "A": evaluate.Failing, "B": evaluate.Failing, "TOP": evaluate.Failing,
			"C": evaluate.Unproven, "D": evaluate.Unproven}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs := verdicts(t, c.build())
			for id, want := range c.want {
				if got := vs[id].Status; got != want {
					t.Errorf("%s: %s, want %s (reasons %+v)", id, got, want, vs[id].Reasons)
				}
			}
		})
	}
}
