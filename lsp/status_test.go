package lsp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/cli"
	"github.com/seg-trace/seg/lsp"
)

// defaults are the initializationOptions of an editor that sets nothing
// but the codes' address: statuses in open documents only, as
// information.
const defaults = `{"codesBaseURL":"https://example.org/codes#"}`

// plain renders diagnostics as "range code severity" lines.
func plain(ds []diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %d", d.Range, d.Code, d.Severity))
	}
	return out
}

// arrived drains the files whose diagnostics arrived, in order.
func (c *client) arrived() []string {
	var out []string
	for {
		select {
		case f := <-c.seen:
			out = append(out, f)
		default:
			return out
		}
	}
}

// manyFiles is a tree of n files, each with a broken link (an error, shown
// workspace-wide) and an unsatisfied requirement (a status, shown in open
// documents only), and docs/open.rst.
func manyFiles(n int) map[string]string {
	files := map[string]string{
		"docs/open.rst": ".. sreq:: Open\n   :id: OPEN-1\n",
	}
	for i := range n {
		files[fmt.Sprintf("docs/f%03d.rst", i)] = fmt.Sprintf(".. sreq:: R\n   :id: R-%d\n\n.. test:: T\n   :id: T-%d\n   :verifies: R-%d, MISSING-TARGET-%d\n", i, i, i, i)
	}
	return files
}

// The first analysis reads the document opened right after initialized,
// with its unsaved text; its diagnostics come before any other file's.
// Statuses show in it (as information), not in the files not open.
func TestOpenDocumentFirst(t *testing.T) {
	files := manyFiles(40)
	files["docs/only.rst"] = ".. sreq:: Only a status\n   :id: ONLY-1\n"
	root := writeTree(t, files)
	c := startWith(t, root, at, "", defaults)
	c.open("docs/open.rst", ".. sreq:: Open\n   :id: OPEN-1\n\n.. sreq:: Typed, not saved\n   :id: NEW-1\n")
	c.sync()
	got := c.arrived()
	if len(got) != 41 || got[0] != "docs/open.rst" {
		t.Fatalf("order of publishDiagnostics: %v, want docs/open.rst first, then 40 files", got)
	}
	ds := c.diagnostics("docs/open.rst")
	if want := []string{"0:0-0:14 unsatisfied 3", "3:0-3:26 unsatisfied 3"}; !cmp.Equal(plain(ds), want) {
		t.Errorf("the open document: %v, want %v", plain(ds), want)
	}
	if !strings.Contains(ds[1].Message, `"NEW-1" is unproven`) {
		t.Errorf("status of the unsaved requirement: %q", ds[1].Message)
	}
	// Another file: its broken link, not its statuses.
	if got := plain(c.diagnostics("docs/f007.rst")); !cmp.Equal(got, []string{"5:19-5:35 unresolved-link 1"}) {
		t.Errorf("a file not open: %v", got)
	}
	// Opened, it shows them; closed, no longer.
	c.open("docs/f007.rst", ".. sreq:: R\n   :id: R-7\n\n.. test:: T\n   :id: T-7\n   :verifies: R-7, MISSING-TARGET-7\n")
	if got := plain(c.diagnostics("docs/f007.rst")); !cmp.Equal(got, []string{"0:0-0:11 unsatisfied 3", "5:19-5:35 unresolved-link 1"}) {
		t.Errorf("once open: %v", got)
	}
	c.notify("textDocument/didClose", fmt.Sprintf(`{"textDocument":{"uri":%q}}`, c.uri("docs/f007.rst")))
	if got := plain(c.diagnostics("docs/f007.rst")); !cmp.Equal(got, []string{"5:19-5:35 unresolved-link 1"}) {
		t.Errorf("closed again: %v", got)
	}
	// The setting shows them everywhere.
	c.notify("workspace/didChangeConfiguration", `{"settings":{"seg":{"unsatisfiedScope":"workspace"}}}`)
	if got := plain(c.diagnostics("docs/f007.rst")); !cmp.Equal(got, []string{"0:0-0:11 unsatisfied 3", "5:19-5:35 unresolved-link 1"}) {
		t.Errorf("unsatisfiedScope workspace: %v", got)
	}
	if got := plain(c.diagnostics("docs/only.rst")); !cmp.Equal(got, []string{"0:0-0:23 unsatisfied 3"}) {
		t.Errorf("unsatisfiedScope workspace, a file with a status only: %v", got)
	}
	// And back: a file whose only diagnostic was a status is cleared.
	c.notify("workspace/didChangeConfiguration", `{"settings":{"seg":{"unsatisfiedScope":"open"}}}`)
	if got := plain(c.diagnostics("docs/f007.rst")); !cmp.Equal(got, []string{"5:19-5:35 unresolved-link 1"}) {
		t.Errorf("unsatisfiedScope open again: %v", got)
	}
	if got := plain(c.diagnostics("docs/only.rst")); len(got) != 0 {
		t.Errorf("unsatisfiedScope open again, a file with a status only: %v", got)
	}
}

// An edit stops the background publishing: the edited document's
// diagnostics come before the rest of the tree's, which are published
// after it once each, and end as a fresh analysis has them.
func TestBackgroundPublishingCancelled(t *testing.T) {
	defer lsp.SetBackgroundPause(3 * time.Millisecond)()
	root := writeTree(t, manyFiles(120))
	c := startWith(t, root, at, "", defaults)
	c.open("docs/open.rst", ".. sreq:: Open\n   :id: OPEN-1\n")
	if f := <-c.seen; f != "docs/open.rst" {
		t.Fatalf("first published: %s", f)
	}
	// The background runs (3 ms a file, 120 files): once it published
	// five, an edit that breaks a link of the open document.
	var before []string
	for len(before) < 5 {
		before = append(before, <-c.seen)
	}
	c.edit("docs/open.rst", 2, r(1, 13, 1, 13), "\n   :refines: GONE-1")
	for f := range c.seen {
		if f == "docs/open.rst" {
			break
		}
		before = append(before, f)
	}
	if len(before) >= 120 {
		t.Fatalf("the background publishing was not stopped by the edit: %d files before the edit's diagnostics", len(before))
	}
	c.sync()
	after := c.arrived()
	seen := map[string]int{}
	for _, f := range append(before, after...) {
		seen[f]++
	}
	for i := range 120 {
		f := fmt.Sprintf("docs/f%03d.rst", i)
		if seen[f] != 1 {
			t.Errorf("%s published %d times, want once", f, seen[f])
		}
		if got := plain(c.diagnostics(f)); len(got) != 1 || !strings.Contains(got[0], "unresolved-link 1") {
			t.Errorf("%s: %v", f, got)
		}
	}
	if got := plain(c.diagnostics("docs/open.rst")); !cmp.Equal(got, []string{"0:0-0:14 unsatisfied 3", "2:13-2:20 unresolved-link 1"}) {
		t.Errorf("the edited document: %v", got)
	}
	t.Logf("%d files published before the edit, %d after", len(before), len(after))
}

type report struct {
	Kind     string       `json:"kind"`
	ResultID string       `json:"resultId"`
	Items    []diagnostic `json:"items"`
	URI      string       `json:"uri"`
}

// A client that pulls diagnostics (LSP 3.17) is sent none: it asks, and
// a result ID it has is answered "unchanged".
func TestPullDiagnostics(t *testing.T) {
	root := writeTree(t, fixture)
	c := startWith(t, root, at, `{"textDocument":{"diagnostic":{}},"workspace":{"diagnostics":{"refreshSupport":true}}}`, defaults)
	c.open("docs/tests.rst", fixture["docs/tests.rst"])
	c.sync()
	if got := c.arrived(); len(got) != 0 {
		t.Errorf("pushed to a client that pulls: %v", got)
	}
	doc := func(prev string) report {
		var rep report
		p := fmt.Sprintf(`{"textDocument":{"uri":%q}}`, c.uri("docs/tests.rst"))
		if prev != "" {
			p = fmt.Sprintf(`{"textDocument":{"uri":%q},"previousResultId":%q}`, c.uri("docs/tests.rst"), prev)
		}
		c.callRaw("textDocument/diagnostic", p, &rep)
		return rep
	}
	first := doc("")
	if first.Kind != "full" || first.ResultID == "" || len(first.Items) != 6 {
		t.Fatalf("first pull: %+v", first)
	}
	if again := doc(first.ResultID); again.Kind != "unchanged" || again.ResultID != first.ResultID || again.Items != nil {
		t.Errorf("pull with the same result ID: %+v", again)
	}
	// Body text changes no diagnostic: still unchanged.
	c.edit("docs/tests.rst", 2, r(3, 0, 3, 0), " ")
	if again := doc(first.ResultID); again.Kind != "unchanged" {
		t.Errorf("after body text: %+v", again)
	}
	// Mending a link does.
	c.edit("docs/tests.rst", 3, r(2, 21, 2, 30), "")
	mended := doc(first.ResultID)
	if mended.Kind != "full" || mended.ResultID == first.ResultID || len(mended.Items) != 5 {
		t.Errorf("after mending a link: %+v", mended)
	}

	// The workspace: every file with diagnostics, then only what changed.
	var ws struct {
		Items []report `json:"items"`
	}
	c.callRaw("workspace/diagnostic", `{"previousResultIds":[]}`, &ws)
	ids := map[string]string{}
	var prev []string
	for _, it := range ws.Items {
		if it.Kind != "full" {
			t.Errorf("first workspace pull: %+v", it)
		}
		ids[c.rel(it.URI)] = it.ResultID
		prev = append(prev, fmt.Sprintf(`{"uri":%q,"value":%q}`, it.URI, it.ResultID))
	}
	if len(ids) != 2 || ids["docs/tests.rst"] != mended.ResultID {
		t.Fatalf("workspace pull: %v (the open document's %s)", ids, mended.ResultID)
	}
	c.edit("docs/tests.rst", 4, r(2, 21, 2, 21), "X")
	c.callRaw("workspace/diagnostic", `{"previousResultIds":[`+strings.Join(prev, ",")+`]}`, &ws)
	kinds := map[string]string{}
	for _, it := range ws.Items {
		kinds[c.rel(it.URI)] = it.Kind
	}
	if want := map[string]string{"docs/req.rst": "unchanged", "docs/tests.rst": "full"}; !cmp.Equal(kinds, want) {
		t.Errorf("second workspace pull: %v, want %v", kinds, want)
	}
}

// A requirement's status on its directive line of an open document: a
// code lens and an inlay hint with the evaluation's counts, the status
// seg check gives it.
func TestCodeLensAndInlayHints(t *testing.T) {
	root := writeTree(t, fixture)
	c := startWith(t, root, at, "", defaults)
	c.open("docs/req.rst", fixture["docs/req.rst"])
	var lenses []struct {
		Range   rng `json:"range"`
		Command struct {
			Title string `json:"title"`
		} `json:"command"`
	}
	c.callRaw("textDocument/codeLens", fmt.Sprintf(`{"textDocument":{"uri":%q}}`, c.uri("docs/req.rst")), &lenses)
	var got []string
	for _, l := range lenses {
		got = append(got, l.Range.String()+" "+l.Command.Title)
	}
	want := []string{
		"3:0-3:33 satisfied · 1 test · 1 impl",
		`6:0-6:18 unproven · 0 tests · 0 impls: refined by "REQ-2", which is unsatisfied`,
		"9:3-9:18 unproven · 0 tests · 0 impls: no active verifies edge: no test specification verifies it",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("code lenses (-want +got):\n%s", diff)
	}
	var hints []struct {
		Position pos    `json:"position"`
		Label    string `json:"label"`
		Tooltip  string `json:"tooltip"`
	}
	c.callRaw("textDocument/inlayHint", fmt.Sprintf(`{"textDocument":{"uri":%q},"range":{"start":{"line":5,"character":0},"end":{"line":20,"character":0}}}`, c.uri("docs/req.rst")), &hints)
	got = nil
	for _, h := range hints {
		got = append(got, fmt.Sprintf("%d:%d %s | %s", h.Position.Line, h.Position.Character, h.Label, h.Tooltip))
	}
	want = []string{
		`6:18 unproven · 0 tests · 0 impls | refined by "REQ-2", which is unsatisfied`,
		"9:18 unproven · 0 tests · 0 impls | no active verifies edge: no test specification verifies it",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inlay hints (-want +got):\n%s", diff)
	}
	// The statuses are seg check's.
	var out, errb bytes.Buffer
	cli.Execute([]string{"check", "--format", "json", "--at", "2026-11-29", "--no-cache", root}, &out, &errb)
	var rep checkReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	status := map[int]string{}
	for _, r := range rep.Requirements {
		if filepath.ToSlash(r.File) == "docs/req.rst" {
			status[r.Line-1] = r.Status
		}
	}
	for _, l := range lenses {
		if s := status[l.Range.Start.Line]; !strings.HasPrefix(l.Command.Title, s+" · ") {
			t.Errorf("line %d: lens %q, seg check says %q", l.Range.Start.Line, l.Command.Title, s)
		}
	}
}
