package graph

import (
	"math/rand/v2"
	"testing"

	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
)

// A link into another project gets no suggestion of another prefix family:
// one with an external source's id_prefix only IDs with that prefix, one
// of a family only external needs have only IDs of that family, and one of
// a family no node has (the other project's needs.json was not read) none.
// A project without external sources is not constrained.
func TestSuggestExternalFamily(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	g := idGraph(r, []string{"REQ_001", "REQ_002", "SPEC_001", "OTH_SPEC_001", "LIB_001"})
	for _, n := range g.nodes {
		n.external = n.id == "OTH_SPEC_001" || n.id == "LIB_001"
	}
	np := &needs.Project{External: []needs.ExternalSource{{JSONPath: "o.json", IDPrefix: "OTH_"}, {JSONPath: "x.json", IDPrefix: "X_"}, {JSONURL: "https://example.org/needs.json"}}}
	s := newSuggester(g)
	for _, tc := range []struct{ link, want string }{
		{"OTH_SPEC_002", "OTH_SPEC_001"}, // the external source's prefix
		{"OTH_REQ_001", "OTH_SPEC_001"},  // three edits, in the prefix
		{"X_REQ_001", ""},                // not "REQ_001" (two edits): X_ is a prefix of another project
		{"LIB_002", "LIB_001"},           // a family only external needs have
		{"EXT_001", ""},                  // no node's family: the needs.json not read
		{"REQ_003", "REQ_001"},           // a local family
		{"RQE_001", ""},                  // a typo of a family reads as another project's
		{"SPEC_002", "SPEC_001"},
	} {
		if got := s.closestWith(tc.link, parser.Requirement, s.linkConstraint(tc.link, np)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.link, got, tc.want)
		}
	}
	if got := s.closest("X_REQ_001", parser.Requirement); got != "REQ_001" {
		t.Errorf("unconstrained, X_REQ_001 is two edits from REQ_001: %q", got)
	}
	// Without external sources a typo of a family is still a typo.
	if got := s.closestWith("RQE_001", parser.Requirement, s.linkConstraint("RQE_001", &needs.Project{})); got != "REQ_001" {
		t.Errorf("no external sources: %q", got)
	}
}
