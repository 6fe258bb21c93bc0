package evaluate_test

import (
	"strings"
	"testing"

	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
)

func verdictsWith(t *testing.T, tr *segtest.Tree, o evaluate.Options) map[string]evaluate.Verdict {
	t.Helper()
	g, _ := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
	o.At = at
	res := evaluate.EvaluateWith(g, o)
	m := map[string]evaluate.Verdict{}
	for _, v := range res.Verdicts {
		m[v.ID] = v
	}
	return m
}

// partialTest adds a test specification whose verifies links verify in
// part only, as one made from a PartiallyVerifies property is.
func partialTest(tr *segtest.Tree, id string, reqs ...string) {
	o := segtest.Links("verifies", strings.Join(reqs, ", "))
	for i := range o.Links {
		o.Links[i].Partial = true
	}
	tr.Add(parser.Test, "test", id, o)
}

func blockingCodes(v evaluate.Verdict) []string {
	var out []string
	for _, r := range v.Blocking() {
		out = append(out, r.Code.Name)
	}
	return out
}

// A [policy] entry decides a leaf of its directive by the evidence it
// names; every other directive keeps the seed's rule exactly.
func TestPolicies(t *testing.T) {
	only := func(implements, verifies, fully bool) *evaluate.Policies {
		return &evaluate.Policies{ByDirective: map[string]*evaluate.Policy{
			"sreq": {Directive: "sreq", Implements: implements, Verifies: verifies || fully, FullyVerifies: fully, Where: "seg.toml:3"}}}
	}
	implOnly := func() *segtest.Tree {
		tr := &segtest.Tree{}
		tr.Req("R", "")
		tr.Impl("I", "R")
		tr.Add(parser.Requirement, "std", "S", segtest.Opt("title", "other type"))
		tr.Impl("I2", "S")
		return tr
	}
	testOnly := func() *segtest.Tree {
		tr := &segtest.Tree{}
		tr.Req("R", "")
		tr.Test("T", "R")
		tr.Impl("I", "")
		tr.Outcome("O", "T", "I", "passed")
		return tr
	}
	partial := func(result string) func() *segtest.Tree {
		return func() *segtest.Tree {
			tr := &segtest.Tree{}
			tr.Req("R", "")
			partialTest(tr, "T", "R")
			tr.Impl("I", "R")
			tr.Outcome("O", "T", "I", result)
			return tr
		}
	}
	for _, tc := range []struct {
		name     string
		tree     func() *segtest.Tree
		policies *evaluate.Policies
		want     map[string]string // ID -> status and blocking codes
	}{
		{"implements only, no policy: the seed's rule", implOnly, nil,
			map[string]string{"R": "unproven no-active-verifies", "S": "unproven no-active-verifies"}},
		{"implements only under [\"implements\"]", implOnly, only(true, false, false),
			map[string]string{"R": "satisfied", "S": "unproven no-active-verifies"}},
		{"verified only under [\"implements\"]", testOnly, only(true, false, false),
			map[string]string{"R": "unproven no-active-implements"}},
		{"verified only under [\"verifies\"]", testOnly, only(false, true, false),
			map[string]string{"R": "satisfied"}},
		{"implements only under [\"verifies\"]", implOnly, only(false, true, false),
			map[string]string{"R": "unproven no-active-verifies", "S": "unproven no-active-verifies"}},
		{"a failing test still counts under [\"implements\"]", func() *segtest.Tree {
			tr := implOnly()
			tr.Test("T", "R")
			tr.Outcome("O", "T", "I", "failed")
			return tr
		}, only(true, false, false), map[string]string{"R": "failing outcome-failed", "S": "unproven no-active-verifies"}},
		{"a test that never ran still counts under [\"implements\"]", func() *segtest.Tree {
			tr := implOnly()
			tr.Test("T", "R")
			return tr
		}, only(true, false, false), map[string]string{"R": "unproven no-confirming-outcome", "S": "unproven no-active-verifies"}},
		{"partial verification counts by default", partial("passed"), nil, map[string]string{"R": "satisfied"}},
		{"partial verification under fully-verifies", partial("passed"), only(true, false, true),
			map[string]string{"R": "unproven partial-verification-only"}},
		{"partial and failing under fully-verifies", partial("failed"), only(true, false, true),
			map[string]string{"R": "failing partial-verification-only outcome-failed"}},
		{"a full test beside the partial one", func() *segtest.Tree {
			tr := partial("passed")()
			tr.Test("T2", "R")
			tr.Outcome("O2", "T2", "I", "passed")
			return tr
		}, only(true, false, true), map[string]string{"R": "satisfied"}},
		{"the project's full verification", partial("passed"),
			&evaluate.Policies{Full: &evaluate.Policy{Implements: true, Verifies: true, FullyVerifies: true, Where: "seg.toml:2"}},
			map[string]string{"R": "unproven partial-verification-only"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vs := verdictsWith(t, tc.tree(), evaluate.Options{Policies: tc.policies})
			for id, want := range tc.want {
				v := vs[id]
				got := strings.Join(append([]string{v.Status.String()}, blockingCodes(v)...), " ")
				if got != want {
					t.Errorf("%s: %q, want %q (%v)", id, got, want, v.Reasons)
				}
				if (v.Policy != nil) != (tc.policies != nil && (tc.policies.ByDirective["sreq"] != nil && id == "R" || tc.policies.Full != nil)) {
					t.Errorf("%s: policy %v", id, v.Policy)
				}
			}
		})
	}
}

// A verdict under a policy says which, and where it is written.
func TestPolicyWords(t *testing.T) {
	for _, tc := range []struct {
		p    evaluate.Policy
		want string
	}{
		{evaluate.Policy{Directive: "std_req", Implements: true, Where: "seg.toml:14"}, "the policy of std_req: needs implements; seg.toml:14"},
		{evaluate.Policy{Directive: "comp_req", Verifies: true}, "the policy of comp_req: needs verifies"},
		{evaluate.Policy{Directive: "r", Implements: true, Verifies: true, FullyVerifies: true, Where: "seg.toml:2"}, "the policy of r: needs implements and full verification; seg.toml:2"},
		{evaluate.Policy{Implements: true, Verifies: true, FullyVerifies: true}, "the project's policy: needs implements and full verification"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
	tr := &segtest.Tree{}
	tr.Req("R", "")
	tr.Impl("I", "R")
	p := &evaluate.Policy{Directive: "sreq", Implements: true, Where: "seg.toml:14"}
	v := verdictsWith(t, tr, evaluate.Options{Policies: &evaluate.Policies{ByDirective: map[string]*evaluate.Policy{"sreq": p}}})["R"]
	if !v.Satisfied || v.Policy != p {
		t.Fatalf("verdict %+v", v)
	}
	var notes []string
	for _, r := range v.Reasons {
		notes = append(notes, r.Code.Name+": "+r.Message)
	}
	if want := "policy: decided under the policy of sreq: needs implements; seg.toml:14"; len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want [%q]", notes, want)
	}
}
