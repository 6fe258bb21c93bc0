package check

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/internal/testing/revref"
	"github.com/seg-trace/seg/revision"
)

// TestRevisionReference runs seg on random trees of real files (RST with
// nested nodes, tabs and every line end, source files, seg.toml, seg.lock
// with current, stale, unreadable, duplicate and orphan pins) and compares
// every node's revision, every requirement's status and the position of
// every diagnostic of the revision rules with internal/revref, a reference
// written from the spec alone.
//
// SEG_REVREF_SEED=n runs seed n only; SEG_REVREF_KEEP=dir also writes its
// tree to dir, to run seg on by hand.
func TestRevisionReference(t *testing.T) {
	seeds := make([]uint64, 400)
	if testing.Short() {
		seeds = seeds[:120]
	}
	for i := range seeds {
		seeds[i] = uint64(i)
	}
	if s := os.Getenv("SEG_REVREF_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seeds = []uint64{n}
	}
	hits := map[string]int{}
	failed := 0
	for _, seed := range seeds {
		tr := revref.Generate(seed)
		want := tr.Expected()
		for k, v := range tr.Hits {
			hits[k] += v
		}
		for k, v := range want.Hits {
			hits[k] += v
		}
		root := t.TempDir()
		if keep := os.Getenv("SEG_REVREF_KEEP"); keep != "" && len(seeds) == 1 {
			root = keep
		}
		if err := tr.Write(root); err != nil {
			t.Fatal(err)
		}
		if problems := compareReference(t, root, tr, want); len(problems) > 0 {
			t.Errorf("seed %d (SEG_REVREF_SEED=%d SEG_REVREF_KEEP=/tmp/t go test ./check -run TestRevisionReference):\n%s",
				seed, seed, strings.Join(problems, "\n"))
			if failed++; failed == 5 {
				t.Fatal("stopping after 5 seeds that disagree")
			}
		}
	}
	if len(seeds) == 1 {
		return
	}
	keys := make([]string, 0, len(hits))
	for k := range hits {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var report strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&report, "%6d  %s\n", hits[k], k)
	}
	t.Logf("rules reached over %d trees:\n%s", len(seeds), report.String())
	least := 3 // "several times"
	if testing.Short() {
		least = 1
	}
	for _, k := range reached {
		if hits[k] < least {
			t.Errorf("%d trees reached %q, fewer than %d", hits[k], k, least)
		}
	}
}

// reached are the rules and shapes every run of the test must reach.
var reached = []string{
	// Links and pins.
	"stale verifies", "stale implements", "stale confirms", "stale witnesses", "stale excuses", "stale refines",
	"unreviewed verifies", "unreviewed implements", "unreviewed confirms", "unreviewed witnesses",
	"unreviewed excuses", "unreviewed refines", "current pin", "pin in upper case",
	"strict review, a link with only an unreadable line", "current through a duplicate pin", "stale through a duplicate pin", "duplicate orphan pin", "lock: CRLF line",
	"invalid-pin: unknown link", "invalid-pin: too few fields", "invalid-pin: bad revision",
	"invalid-pin: too many fields", "invalid-pin: trailing comment",
	"diagnostic stale-link", "diagnostic unreviewed-link", "diagnostic invalid-pin", "diagnostic duplicate-pin",
	"diagnostic orphan-pin", "diagnostic missing-source", "diagnostic invalid-max-age",
	// Evidence taken away.
	"excluded: future-evidence", "excluded: stale confirms", "excluded: stale witnesses", "excluded: unwitnessed",
	"excluded: invalid max-age", "excluded: undated-evidence", "excluded: expired-evidence",
	"exactly the maximum age", "maximum age from the test", "maximum age from seg.toml", "invalid outcome",
	"invalid outcome whose result says no", "counted outcome that says no",
	// Waivers.
	"excused", "waiver in force on its expiry day", "waiver: stale excuses", "waiver: expired", "waiver: future", "waiver: invalid date",
	"waiver: invalid expires", "waiver: cases-not-allowed", "waiver: cases miss",
	// Verdicts.
	"status satisfied", "status failing", "status unproven", "non-leaf satisfied", "non-leaf failing",
	"non-leaf unproven", "refinement cycle",
	// Revisions through the parser.
	"source glob", "source folder", "nested node", "nested node, wrap note", "nested node, wrap item",
	"tab indentation in a body", "tab inside a line", "trailing white space", "blank run", "block quote",
	"literal block", "code-block", "comment", "title over lines", "option continuation line",
	"link list over lines", "value on a continuation line", "node indented with tabs",
	"directive name in another case", `file with "\r\n" line ends`, `file with "\r" line ends`,
	"an entry twice in one option", "unresolved link", "link to the wrong kind",
}

// tolerated are the codes a generated tree may draw besides the compared
// ones; any other means the generator wrote what it did not mean to.
// hidden-directive is the warning at the directives the generator hides
// in comments and literal blocks on purpose.
var tolerated = []string{"hidden-directive", "unwitnessed-outcome", "expired-waiver", "unused-waiver", "orphan-test",
	"expiring-waiver", "invalid-result", "invalid-date", "missing-option", "cases-not-allowed", "refinement-cycle",
	"duplicate-link", "unresolved-link", "wrong-kind"}

// compareReference runs seg on root and lists where it disagrees with
// the reference.
func compareReference(t *testing.T, root string, tr *revref.Tree, want *revref.Expect) []string {
	t.Helper()
	tree, err := Open(root, "")
	if err != nil {
		return []string{err.Error()}
	}
	c, _, err := tree.Run(Options{At: tr.At})
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	if n := c.Graph.Len(); n != len(tr.Nodes) {
		problems = append(problems, fmt.Sprintf("seg found %d nodes, the tree has %d", n, len(tr.Nodes)))
	}
	for _, n := range tr.Nodes {
		g, ok := c.Graph.Lookup(n.ID)
		if !ok {
			problems = append(problems, fmt.Sprintf("no node %s (%s:%d)", n.ID, n.File, n.Line))
			continue
		}
		if got := revision.String(g.Revision()); got != want.Revision[n.ID] {
			problems = append(problems, fmt.Sprintf("revision of %s (%s:%d): seg %s, reference %s; canonical document:\n%s",
				n.ID, n.File, n.Line, got, want.Revision[n.ID], n.TextDocument()))
		}
	}
	for _, r := range c.Requirements() {
		id := r.Node.ID()
		if got := r.Verdict.Status.String(); got != want.Status[id] {
			var reasons []string
			for _, re := range r.Verdict.Reasons {
				reasons = append(reasons, re.Code.Name)
			}
			problems = append(problems, fmt.Sprintf("%s is %s, the reference says %s (seg's reasons %v)", id, got, want.Status[id], reasons))
		}
	}
	var diags []string
	for _, d := range c.Diagnostics {
		p := c.Files.Position(d.Span.Start)
		switch {
		case slices.Contains(revref.Compared, d.Code.Name):
			diags = append(diags, fmt.Sprintf("%s %s:%d:%d", d.Code.Name, p.Filename, p.Line, p.Column))
		case !slices.Contains(tolerated, d.Code.Name):
			problems = append(problems, fmt.Sprintf("unexpected diagnostic %s:%d:%d: %s [%s]", p.Filename, p.Line, p.Column, d.Message, d.Code.Name))
		}
	}
	slices.Sort(diags)
	if diff := cmp.Diff(want.Diags, diags); diff != "" {
		problems = append(problems, "diagnostics (-reference +seg):\n"+diff)
	}
	return problems
}
