package segtest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/seg-trace/seg/parser"
)

// summary is what a node says, position aside, one line a node, sorted.
func summary(nodes []parser.Node) string {
	var lines []string
	for _, n := range nodes {
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s %s %q", n.Kind, n.Directive, n.ID, n.Title)
		for _, o := range n.Options {
			fmt.Fprintf(&b, " :%s: %s", o.Name, o.Value)
		}
		lines = append(lines, b.String())
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// A random tree written as RST, in one file or spread over many with
// nodes nested, reads back as the nodes segtest built: the same tree can
// go through the whole pipeline, parser included.
func TestRSTReadsBack(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 9))
		tr := RandomTree(r)
		want := summary(tr.Nodes)
		for what, text := range map[string]map[string]string{
			"RST":      {"t.rst": tr.RST()},
			"RSTFiles": tr.RSTFiles(r, 3),
		} {
			var got []parser.Node
			_, files := Parse(text).Files()
			for _, f := range files {
				got = append(got, f.Nodes...)
			}
			if s := summary(got); s != want {
				t.Fatalf("seed %d: %s reads back as\n%s\nwant\n%s", seed, what, s, want)
			}
		}
	}
}
