package evaluate

import (
	"fmt"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
)

// Policy is the evidence a leaf requirement of one directive (a seg
// directive or a need type) needs, as seg.toml's [policy] table says
// (docs/semantics.md, "Evidence policies"). A requirement whose directive
// has none is decided by the seed's leaf rule: an active verifies edge
// and an active implements edge.
type Policy struct {
	// Directive is the directive the policy is of, lower-cased; "" for
	// the project's ([evidence] full-verification).
	Directive string
	// Implements: the leaf needs an active implements edge. Verifies: an
	// active verifies edge. FullyVerifies: an active verifies edge that is
	// not partial (it implies Verifies).
	Implements, Verifies, FullyVerifies bool
	// Where is the place the policy is written, "seg.toml:14".
	Where string
}

// Needs is what the policy asks for, in words: "implements", "verifies",
// "implements and full verification".
func (p *Policy) Needs() string {
	var ws []string
	if p.Implements {
		ws = append(ws, "implements")
	}
	switch {
	case p.FullyVerifies:
		ws = append(ws, "full verification")
	case p.Verifies:
		ws = append(ws, "verifies")
	}
	return strings.Join(ws, " and ")
}

// String is how every report names the policy: "the policy of std_req:
// needs implements; seg.toml:14".
func (p *Policy) String() string {
	what := "the policy of " + p.Directive
	if p.Directive == "" {
		what = "the project's policy"
	}
	s := fmt.Sprintf("%s: needs %s", what, p.Needs())
	if p.Where != "" {
		s += "; " + p.Where
	}
	return s
}

// The reason codes of policies and partial verification.
var (
	ReasonPartialOnly = diag.NewReason("partial-verification-only",
		"a leaf whose policy needs full verification has only partial verifies edges", true)
	ReasonPolicy = diag.NewReason("policy",
		"note: the leaf is decided under its type's evidence policy ([policy] in seg.toml)", false)
)

// policyOf is the policy the leaf n is decided under, nil for the seed's
// rule. A project that asks for full verification ([evidence]
// full-verification) gives every directive without a policy of its own
// the seed's rule with full verification.
func (e *evaluation) policyOf(n *graph.Node) *Policy {
	ps := e.opts.Policies
	if ps == nil {
		return nil
	}
	if p := ps.ByDirective[n.Directive()]; p != nil {
		return p
	}
	return ps.Full
}

// Policies are seg.toml's evidence policies: [policy] by directive, and
// Full, when not nil, the policy of every directive without one of its
// own ([evidence] full-verification: both edges, verification in full).
type Policies struct {
	ByDirective map[string]*Policy
	Full        *Policy
}

// policyClauses are the leaf rule's first two clauses under policy p (nil:
// the seed's rule): which edges the leaf needs, given whether it carries
// an active verifies edge, an active one that is not partial, and an
// active implements edge. The clauses about tests' outcomes hold
// whatever the policy: a test that verifies the leaf still has to run
// and pass.
func policyClauses(p *Policy) (needV, needFull, needI bool) {
	if p == nil {
		return true, false, true
	}
	return p.Verifies || p.FullyVerifies, p.FullyVerifies, p.Implements
}

// samePolicies reports whether two evaluations decide under the same
// policies (Update reuses a result only then).
func samePolicies(a, b *Options) bool {
	same := func(p, q *Policy) bool { return p == q || p != nil && q != nil && *p == *q }
	x, y := a.Policies, b.Policies
	if x == nil || y == nil {
		return x == y
	}
	if len(x.ByDirective) != len(y.ByDirective) || !same(x.Full, y.Full) {
		return false
	}
	for k, p := range x.ByDirective {
		if !same(p, y.ByDirective[k]) {
			return false
		}
	}
	return true
}
