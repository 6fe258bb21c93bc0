package graph

import (
	"testing"

	"github.com/seg-trace/seg/parser"
)

// LinkOption agrees with what Build accepts: for every link option, a
// link from the kind it names to each kind it lists makes an edge, and a
// link to any other kind is wrong-kind.
func TestLinkOptionIsBuild(t *testing.T) {
	kinds := []parser.Kind{parser.Requirement, parser.Test, parser.Implementation, parser.Outcome, parser.Waiver}
	for _, opt := range []string{"refines", "verifies", "implements", "confirms", "witnesses", "excuses"} {
		from, targets, ok := LinkOption(opt)
		if !ok {
			t.Fatalf("LinkOption(%q) is not a link", opt)
		}
		for _, to := range kinds {
			g, _ := Build(nil, []*parser.File{{Nodes: []parser.Node{
				{Kind: to, ID: "TO", Parent: -1},
				{Kind: from, ID: "FROM", Parent: -1, Options: []parser.Option{{Name: opt, Value: "TO", Links: []parser.Link{{ID: "TO"}}}}},
			}}}, nil, nil)
			n, _ := g.Lookup("FROM")
			made := n.OutDegree() > 0
			want := false
			for _, k := range targets {
				want = want || k == to
			}
			if made != want {
				t.Errorf(":%s: from %s to %s: edge %v, LinkOption says %v", opt, from, to, made, want)
			}
		}
	}
	if _, _, ok := LinkOption("cases"); ok {
		t.Error(":cases: is a link option")
	}
}
