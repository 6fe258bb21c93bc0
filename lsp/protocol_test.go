package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/lsp"
	"github.com/seg-trace/seg/revision"
)

// fixture is a small tree with a finding of most kinds, and characters
// outside ASCII (one outside the Basic Multilingual Plane) before
// positions, so that UTF-16 and UTF-8 columns differ.
var fixture = map[string]string{
	"docs/req.rst": "Requirements ✓\n" +
		"==============\n" +
		"\n" +
		".. sreq:: Brake pressure 𝄞 ramps\n" +
		"   :id: REQ-1\n" +
		"\n" +
		".. sreq:: Parent ✓\n" +
		"   :id: SYS-1\n" +
		"\n" +
		"   .. sreq:: Child\n" +
		"      :id: REQ-2\n" +
		"      :refines: SYS-1\n" +
		"\n" +
		".. sreq:: Duplicate\n" +
		"   :id: REQ-1\n",
	"docs/tests.rst": ".. test:: Pressure ✓ test\n" +
		"   :id: TS-1\n" +
		"   :verifies: REQ-1, ÉTUDE-1, REQ-3 (suspect)\n" +
		"\n" +
		".. impl:: Controller\n" +
		"   :id: IMPL-1\n" +
		"   :implements: REQ-1\n" +
		"   :sorce: x.c\n" +
		"\n" +
		".. outcome:: Run 1\n" +
		"   :id: OUT-1\n" +
		"   :confirms: TS-1\n" +
		"   :witnesses: IMPL-1\n" +
		"   :result: passed\n" +
		"\n" +
		".. test:: Wrong kind\n" +
		"   :id: TS-2\n" +
		"   :verifies: IMPL-1\n" +
		"\n" +
		".. sreq::  No ID here\n",
}

// at fixes the evaluation date; the tests keep out of the user's parse
// cache (TestParseCache uses its own).
var at = lsp.Config{Options: lsp.Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)}}

// brief renders diagnostics as "range code severity" lines, with their
// related locations, for exact comparison.
func brief(c *client, ds []diagnostic) []string {
	var out []string
	for _, d := range ds {
		s := fmt.Sprintf("%s %s %d", d.Range, d.Code, d.Severity)
		for _, r := range d.RelatedInformation {
			s += fmt.Sprintf(" -> %s@%s", c.rel(r.Location.URI), r.Location.Range)
		}
		out = append(out, s)
	}
	return out
}

func TestDiagnosticsUTF16(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	want := map[string][]string{
		"docs/req.rst": {
			"6:0-6:18 unsatisfied 2 -> docs/req.rst@11:16-11:21",
			"9:3-9:18 unsatisfied 2 -> docs/req.rst@9:3-9:18 -> docs/req.rst@9:3-9:18",
			"14:8-14:13 duplicate-id 1 -> docs/req.rst@4:8-4:13",
		},
		"docs/tests.rst": {
			"2:21-2:28 unresolved-link 1",
			"2:30-2:45 unresolved-link 1",
			"7:4-7:9 unknown-option 1",
			"15:0-15:20 orphan-test 2",
			"17:14-17:20 wrong-kind 1 -> docs/tests.rst@4:0-4:20",
			"19:3-19:7 missing-id 1",
		},
	}
	for file, w := range want {
		ds := c.diagnostics(file)
		if diff := cmp.Diff(w, brief(c, ds)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", file, diff)
		}
		for _, d := range ds {
			if d.Source != "seg" || d.CodeDescription == nil || d.CodeDescription.Href != "https://example.org/codes#"+d.Code {
				t.Errorf("%s %s: source %q, codeDescription %+v", file, d.Code, d.Source, d.CodeDescription)
			}
		}
	}
	ds := c.diagnostics("docs/req.rst")
	if got := ds[0].Message; got != `requirement "SYS-1" is unproven: refined by "REQ-2", which is unsatisfied` {
		t.Errorf("unsatisfied message: %s", got)
	}
	if got := c.diagnostics("docs/tests.rst")[1].Message; got != `unresolved link "REQ-3" (did you mean "REQ-1"?)` {
		t.Errorf("unresolved-link message: %s", got)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit code after shutdown and exit: %d, want 0", code)
	}
}

func TestPositionEncodingUTF8(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	// What initialize answers is TestInitializeResult's; here the ranges
	// show the encoding negotiated.
	c := start(t, root, at, `{"general":{"positionEncodings":["utf-8","utf-16"]}}`)
	got := brief(c, c.diagnostics("docs/tests.rst"))[:2]
	want := []string{"2:21-2:29 unresolved-link 1", "2:31-2:46 unresolved-link 1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("utf-8 columns (-want +got):\n%s", diff)
	}
	got = brief(c, c.diagnostics("docs/req.rst"))[:1]
	if want := "6:0-6:20 unsatisfied 2 -> docs/req.rst@11:16-11:21"; got[0] != want {
		t.Errorf("utf-8 directive line: %s, want %s", got[0], want)
	}
}

func TestInitializeResult(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ caps, want string }{
		{`{}`, "utf-16"},
		{`{"general":{"positionEncodings":["utf-16"]}}`, "utf-16"},
		{`{"general":{"positionEncodings":["utf-32","utf-8"]}}`, "utf-8"},
	} {
		root := writeTree(t, fixture)
		c := newClient(t, root, at)
		var res struct {
			Capabilities map[string]json.RawMessage `json:"capabilities"`
			ServerInfo   struct{ Name string }      `json:"serverInfo"`
		}
		c.callRaw("initialize", fmt.Sprintf(`{"processId":null,"rootUri":%q,"capabilities":%s}`, c.uri(""), tc.caps), &res)
		var enc string
		json.Unmarshal(res.Capabilities["positionEncoding"], &enc)
		if enc != tc.want {
			t.Errorf("capabilities %s: positionEncoding %q, want %q", tc.caps, enc, tc.want)
		}
		for _, k := range []string{"definitionProvider", "referencesProvider", "hoverProvider", "completionProvider",
			"documentSymbolProvider", "workspaceSymbolProvider", "codeActionProvider", "renameProvider", "textDocumentSync"} {
			if _, ok := res.Capabilities[k]; !ok {
				t.Errorf("no %s in %s", k, res.Capabilities)
			}
		}
		if res.ServerInfo.Name != "seg" {
			t.Errorf("serverInfo %+v", res.ServerInfo)
		}
	}
}

// Unsaved text counts: the graph is evaluated over the buffer, and the
// disk counts again once the buffer is closed.
func TestUnsavedBuffers(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	c.open("docs/tests.rst", fixture["docs/tests.rst"])
	// Fix the misspelt link in the buffer only: "REQ-3" becomes "REQ-2".
	c.edit("docs/tests.rst", 2, r(2, 30, 2, 35), "REQ-2")
	got := brief(c, c.diagnostics("docs/tests.rst"))
	want := []string{
		"2:21-2:28 unresolved-link 1",
		"7:4-7:9 unknown-option 1",
		"15:0-15:20 orphan-test 2",
		"17:14-17:20 wrong-kind 1 -> docs/tests.rst@4:0-4:20",
		"19:3-19:7 missing-id 1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after the edit (-want +got):\n%s", diff)
	}
	// REQ-2 is now verified (suspect: not active), so its reasons moved on.
	ds := c.diagnostics("docs/req.rst")
	if !strings.Contains(ds[1].Message, `"REQ-2" is unproven: no active verifies edge: only "TS-1" (suspect)`) {
		t.Errorf("REQ-2 after the edit: %s", ds[1].Message)
	}
	data, _ := os.ReadFile(filepath.Join(root, "docs/tests.rst"))
	if string(data) != fixture["docs/tests.rst"] {
		t.Error("the server wrote to the file")
	}
	c.notify("textDocument/didClose", fmt.Sprintf(`{"textDocument":{"uri":%q}}`, c.uri("docs/tests.rst")))
	if got := len(c.diagnostics("docs/tests.rst")); got != 6 {
		t.Errorf("after closing the buffer: %d diagnostics, want the disk's 6", got)
	}
}

func TestNavigation(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	// On "REQ-1" in TS-1's :verifies: (line 2, character 15).
	var def location
	c.callRaw("textDocument/definition", c.at("docs/tests.rst", 2, 15), &def)
	if c.rel(def.URI) != "docs/req.rst" || def.Range != r(3, 0, 3, 33) {
		t.Errorf("definition: %s %s", c.rel(def.URI), def.Range)
	}
	var refs []location
	c.callRaw("textDocument/references", strings.TrimSuffix(c.at("docs/req.rst", 4, 8), "}")+`,"context":{"includeDeclaration":true}}`, &refs)
	var got []string
	for _, l := range refs {
		got = append(got, c.rel(l.URI)+"@"+l.Range.String())
	}
	want := []string{"docs/req.rst@4:8-4:13", "docs/tests.rst@2:14-2:19", "docs/tests.rst@6:16-6:21"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}
	// On the directive line of REQ-2, and on nothing.
	c.callRaw("textDocument/definition", c.at("docs/req.rst", 9, 5), &def)
	if def.Range != r(9, 3, 9, 18) {
		t.Errorf("definition on a directive line: %s", def.Range)
	}
	// A sphinx-needs role in prose: :need:`REQ-2` and :need:`text <SYS-1>`.
	c.open("docs/prose.rst", "See :need:`REQ-2` and :need:`the parent <SYS-1>`.\n")
	c.callRaw("textDocument/definition", c.at("docs/prose.rst", 0, 13), &def)
	if c.rel(def.URI) != "docs/req.rst" || def.Range != r(9, 3, 9, 18) {
		t.Errorf("definition on a :need: role: %s %s", c.rel(def.URI), def.Range)
	}
	c.callRaw("textDocument/definition", c.at("docs/prose.rst", 0, 45), &def)
	if def.Range != r(6, 0, 6, 18) {
		t.Errorf("definition on a :need: role with a title: %s", def.Range)
	}
	var none json.RawMessage
	c.callRaw("textDocument/definition", c.at("docs/req.rst", 1, 2), &none)
	if string(none) != "null" {
		t.Errorf("definition on a title underline: %s", none)
	}

	type symbol struct {
		Name           string   `json:"name"`
		Detail         string   `json:"detail"`
		Kind           int      `json:"kind"`
		Range          rng      `json:"range"`
		SelectionRange rng      `json:"selectionRange"`
		Children       []symbol `json:"children"`
	}
	var syms []symbol
	c.callRaw("textDocument/documentSymbol", fmt.Sprintf(`{"textDocument":{"uri":%q}}`, c.uri("docs/req.rst")), &syms)
	wantSyms := []symbol{
		{Name: "REQ-1", Detail: "sreq: Brake pressure 𝄞 ramps", Kind: 5, Range: r(3, 0, 4, 13), SelectionRange: r(4, 8, 4, 13)},
		{Name: "SYS-1", Detail: "sreq: Parent ✓", Kind: 5, Range: r(6, 0, 11, 21), SelectionRange: r(7, 8, 7, 13), Children: []symbol{
			{Name: "REQ-2", Detail: "sreq: Child", Kind: 5, Range: r(9, 3, 11, 21), SelectionRange: r(10, 11, 10, 16)},
		}},
		{Name: "REQ-1", Detail: "sreq: Duplicate", Kind: 5, Range: r(13, 0, 14, 13), SelectionRange: r(14, 8, 14, 13)},
	}
	if diff := cmp.Diff(wantSyms, syms); diff != "" {
		t.Errorf("document symbols (-want +got):\n%s", diff)
	}

	var ws []struct {
		Name          string   `json:"name"`
		ContainerName string   `json:"containerName"`
		Location      location `json:"location"`
	}
	c.callRaw("workspace/symbol", `{"query":"req-"}`, &ws)
	var names []string
	for _, w := range ws {
		names = append(names, w.Name+"@"+c.rel(w.Location.URI)+":"+w.Location.Range.String())
	}
	if diff := cmp.Diff([]string{"REQ-1@docs/req.rst:4:8-4:13", "REQ-2@docs/req.rst:10:11-10:16"}, names); diff != "" {
		t.Errorf("workspace symbols (-want +got):\n%s", diff)
	}
	c.callRaw("workspace/symbol", `{"query":"brake"}`, &ws)
	if len(ws) != 1 || ws[0].Name != "REQ-1" || ws[0].ContainerName != "Brake pressure 𝄞 ramps" {
		t.Errorf("workspace symbols by title: %+v", ws)
	}
}

func TestHover(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	var h struct {
		Contents struct{ Kind, Value string } `json:"contents"`
		Range    rng                          `json:"range"`
	}
	// On "SYS-1" in REQ-2's :refines:.
	c.callRaw("textDocument/hover", c.at("docs/req.rst", 11, 18), &h)
	if h.Range != r(11, 16, 11, 21) || h.Contents.Kind != "markdown" {
		t.Errorf("hover range %s kind %s", h.Range, h.Contents.Kind)
	}
	for _, want := range []string{"**requirement** `SYS-1` (sreq: Parent ✓)", "docs/req.rst:7", "**unproven** (non-leaf, evaluated at 2026-11-29)", "docs/req.rst:7, revision `",
		`refined by "REQ-2", which is unsatisfied (docs/req.rst:12) ` + "`child-unsatisfied`"} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
	// On REQ-1's directive line: satisfied, with its counts.
	c.callRaw("textDocument/hover", c.at("docs/req.rst", 3, 4), &h)
	for _, want := range []string{"**satisfied** (leaf", "1 test(s), 1 outcome(s) of them (1 counted, 0 skipped, 0 excluded), 1 implementation(s)"} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
}

// The hover's counts are evaluate's (evaluate.Tally): a skipped outcome
// is skipped, not counted, and a non-leaf reads none of its own tests'
// outcomes. The hover once counted every outcome that was not excluded.
func TestHoverCountsAreEvaluates(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"docs/index.rst": "" +
		".. sreq:: Leaf\n   :id: R-1\n   :refines: P-1\n\n" +
		".. sreq:: Parent\n   :id: P-1\n\n" +
		".. test:: T\n   :id: T-1\n   :verifies: R-1, P-1\n\n" +
		".. impl:: I\n   :id: I-1\n   :implements: R-1\n\n" +
		".. outcome:: passed\n   :id: O-1\n   :confirms: T-1\n   :witnesses: I-1\n   :result: passed\n\n" +
		".. outcome:: skipped\n   :id: O-2\n   :confirms: T-1\n   :witnesses: I-1\n   :result: skipped\n\n" +
		".. outcome:: unwitnessed\n   :id: O-3\n   :confirms: T-1\n   :result: failed\n"})
	c := start(t, root, at, "")
	var h struct {
		Contents struct{ Kind, Value string } `json:"contents"`
	}
	for _, tc := range []struct {
		line int
		want string
	}{
		{0, "1 test(s), 3 outcome(s) of them (1 counted, 1 skipped, 1 excluded), 1 implementation(s)"},
		{4, "1 test(s), 3 outcome(s) of them (not counted: a non-leaf is decided by its children), 0 implementation(s)"},
	} {
		c.callRaw("textDocument/hover", c.at("docs/index.rst", tc.line, 4), &h)
		if !strings.Contains(h.Contents.Value, tc.want) {
			t.Errorf("hover on line %d lacks %q:\n%s", tc.line, tc.want, h.Contents.Value)
		}
	}
}

type completion struct {
	IsIncomplete bool `json:"isIncomplete"`
	Items        []struct {
		Label    string `json:"label"`
		Detail   string `json:"detail"`
		TextEdit struct {
			Range   rng    `json:"range"`
			NewText string `json:"newText"`
		} `json:"textEdit"`
	} `json:"items"`
}

func (c completion) labels() []string {
	var out []string
	for _, it := range c.Items {
		out = append(out, it.Label)
	}
	return out
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	text := ".. test:: New test\n   :id: TS-9\n   :verifies: REQ\n   :witnesses: \n   :ver\n\n.. outcome:: New run\n   :id: OUT-9\n   :witnesses: \n"
	c.open("docs/new.rst", text)
	var got completion
	// After ":verifies: REQ": requirements only, with their titles.
	c.callRaw("textDocument/completion", c.at("docs/new.rst", 2, 17), &got)
	if diff := cmp.Diff([]string{"REQ-1", "REQ-2"}, got.labels()); diff != "" {
		t.Errorf(":verifies: completion (-want +got):\n%s", diff)
	}
	if got.Items[0].Detail != "Brake pressure 𝄞 ramps" || got.Items[0].TextEdit.Range != r(2, 14, 2, 17) {
		t.Errorf("first item: %+v", got.Items[0])
	}
	// :witnesses: on an outcome offers implementations.
	c.callRaw("textDocument/completion", c.at("docs/new.rst", 8, 15), &got)
	if diff := cmp.Diff([]string{"IMPL-1"}, got.labels()); diff != "" {
		t.Errorf(":witnesses: completion (-want +got):\n%s", diff)
	}
	// Option names of a test after ":ver".
	c.callRaw("textDocument/completion", c.at("docs/new.rst", 4, 7), &got)
	if diff := cmp.Diff([]string{":verifies:"}, got.labels()); diff != "" || got.Items[0].TextEdit.Range != r(4, 4, 4, 7) || got.Items[0].TextEdit.NewText != "verifies: " {
		t.Errorf("option completion (-want +got):\n%s\n%+v", diff, got.Items)
	}
	// :witnesses: is not a test's option: it takes no IDs there.
	c.callRaw("textDocument/completion", c.at("docs/new.rst", 3, 15), &got)
	if len(got.Items) != 0 {
		t.Errorf(":witnesses: on a test offered %v", got.labels())
	}
}

type workspaceEdit struct {
	Changes map[string][]struct {
		Range   rng    `json:"range"`
		NewText string `json:"newText"`
	} `json:"changes"`
}

// apply applies a workspace edit's changes to texts (by URI).
func apply(t *testing.T, c *client, texts map[string]string, we workspaceEdit) {
	for u, edits := range we.Changes {
		file := c.rel(u)
		lines := strings.SplitAfter(texts[file], "\n")
		off := func(p pos) int {
			o := 0
			for _, l := range lines[:p.Line] {
				o += len(l)
			}
			// The fixtures' edits are on ASCII lines, or UTF-16 counts.
			u := 0
			for i, ch := range lines[p.Line] {
				if u >= p.Character {
					return o + i
				}
				u++
				if ch >= 0x10000 {
					u++
				}
			}
			return o + len(lines[p.Line])
		}
		slices.SortFunc(edits, func(a, b struct {
			Range   rng    `json:"range"`
			NewText string `json:"newText"`
		}) int {
			return off(b.Range.Start) - off(a.Range.Start)
		})
		s := texts[file]
		for _, e := range edits {
			s = s[:off(e.Range.Start)] + e.NewText + s[off(e.Range.End):]
		}
		texts[file] = s
	}
}

func TestCodeActions(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	c.open("docs/tests.rst", fixture["docs/tests.rst"])
	type action struct {
		Title       string        `json:"title"`
		Kind        string        `json:"kind"`
		Diagnostics []diagnostic  `json:"diagnostics"`
		Edit        workspaceEdit `json:"edit"`
	}
	var acts []action
	c.callRaw("textDocument/codeAction", fmt.Sprintf(`{"textDocument":{"uri":%q},"range":%s,"context":{"diagnostics":[]}}`,
		c.uri("docs/tests.rst"), `{"start":{"line":0,"character":0},"end":{"line":20,"character":0}}`), &acts)
	var titles []string
	for _, a := range acts {
		titles = append(titles, a.Title)
		if a.Kind != "quickfix" || len(a.Diagnostics) != 1 {
			t.Errorf("%s: kind %q, %d diagnostics", a.Title, a.Kind, len(a.Diagnostics))
		}
	}
	want := []string{`Change to "REQ-1"`, `Change to "source"`, `Add :id: SREQ-001`}
	if diff := cmp.Diff(want, titles); diff != "" {
		t.Fatalf("code actions (-want +got):\n%s", diff)
	}
	// The link fix replaces the ID and keeps its state.
	e := acts[0].Edit.Changes[c.uri("docs/tests.rst")]
	if len(e) != 1 || e[0].Range != r(2, 30, 2, 35) || e[0].NewText != "REQ-1" {
		t.Errorf("link fix: %+v", e)
	}
	texts := map[string]string{"docs/tests.rst": fixture["docs/tests.rst"]}
	for _, a := range acts {
		apply(t, c, texts, a.Edit)
	}
	for _, want := range []string{"REQ-1, ÉTUDE-1, REQ-1 (suspect)", "   :source: x.c\n", ".. sreq::  No ID here\n   :id: SREQ-001\n"} {
		if !strings.Contains(texts["docs/tests.rst"], want) {
			t.Errorf("after the actions the text lacks %q:\n%s", want, texts["docs/tests.rst"])
		}
	}
	b, _ := json.Marshal(texts["docs/tests.rst"])
	c.notify("textDocument/didChange", fmt.Sprintf(`{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"text":%s}]}`, c.uri("docs/tests.rst"), b))
	var codes []string
	for _, d := range c.diagnostics("docs/tests.rst") {
		codes = append(codes, d.Code)
	}
	// The fixed findings are gone; the new requirement is unsatisfied.
	// x.c, which the fixed :source: names, does not exist (missing-source).
	if diff := cmp.Diff([]string{"unresolved-link", "duplicate-link", "missing-source", "orphan-test", "wrong-kind", "unsatisfied"}, codes); diff != "" {
		t.Errorf("after applying the actions (-want +got):\n%s", diff)
	}
}

func TestRename(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	var prep struct {
		Range       rng    `json:"range"`
		Placeholder string `json:"placeholder"`
	}
	c.callRaw("textDocument/prepareRename", c.at("docs/tests.rst", 6, 18), &prep)
	if prep.Range != r(6, 16, 6, 21) || prep.Placeholder != "REQ-1" {
		t.Errorf("prepareRename: %+v", prep)
	}
	var we workspaceEdit
	c.callRaw("textDocument/rename", strings.TrimSuffix(c.at("docs/tests.rst", 6, 18), "}")+`,"newName":"BRK-REQ-1"}`, &we)
	var got []string
	for u, es := range we.Changes {
		for _, e := range es {
			got = append(got, c.rel(u)+"@"+e.Range.String()+"="+e.NewText)
		}
	}
	slices.Sort(got)
	want := []string{"docs/req.rst@4:8-4:13=BRK-REQ-1", "docs/tests.rst@2:14-2:19=BRK-REQ-1", "docs/tests.rst@6:16-6:21=BRK-REQ-1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rename edits (-want +got):\n%s", diff)
	}
	for _, tc := range []struct{ to, want string }{
		{"SYS-1", `"SYS-1" is already the ID of the requirement at docs/req.rst`},
		{"has space", `"has space" is not a valid ID`},
		{"-lead", `"-lead" is not a valid ID`},
	} {
		err := c.try("textDocument/rename", strings.TrimSuffix(c.at("docs/tests.rst", 6, 18), "}")+fmt.Sprintf(`,"newName":%q}`, tc.to), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("rename to %q: %v, want an error with %q", tc.to, err, tc.want)
		}
	}
	if err := c.try("textDocument/prepareRename", c.at("docs/tests.rst", 2, 32), nil); err == nil || !strings.Contains(err.Error(), `"REQ-3" is not defined`) {
		t.Errorf("prepareRename on an unresolved link: %v", err)
	}
}

func TestWatchedFiles(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, `{"workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true}}}`)
	if len(c.diagnostics("docs/tests.rst")) != 6 {
		t.Fatal("setup")
	}
	// A file created outside the editor defines the missing REQ-3.
	os.WriteFile(filepath.Join(root, "docs/more.rst"), []byte(".. sreq:: More\n   :id: REQ-3\n"), 0o644)
	c.notify("workspace/didChangeWatchedFiles", fmt.Sprintf(`{"changes":[{"uri":%q,"type":1}]}`, c.uri("docs/more.rst")))
	if got := brief(c, c.diagnostics("docs/tests.rst"))[1]; got != "7:4-7:9 unknown-option 1" {
		t.Errorf("after creating REQ-3: %s", got)
	}
	if got := brief(c, c.diagnostics("docs/more.rst")); len(got) != 1 || !strings.HasPrefix(got[0], "0:0-0:14 unsatisfied") {
		t.Errorf("the new file: %v", got)
	}
	os.Remove(filepath.Join(root, "docs/more.rst"))
	c.notify("workspace/didChangeWatchedFiles", fmt.Sprintf(`{"changes":[{"uri":%q,"type":3}]}`, c.uri("docs/more.rst")))
	if got := brief(c, c.diagnostics("docs/tests.rst"))[1]; got != "2:30-2:45 unresolved-link 1" {
		t.Errorf("after deleting REQ-3: %s", got)
	}
	if got := c.diagnostics("docs/more.rst"); len(got) != 0 {
		t.Errorf("the deleted file keeps %v", got)
	}
}

// Without a client that watches files, the server polls the tree.
func TestPolledFiles(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("waits for the poller")
	}
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	c.diagnostics("docs/tests.rst")
	os.WriteFile(filepath.Join(root, "docs/more.rst"), []byte(".. sreq:: More\n   :id: REQ-3\n"), 0o644)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if got := brief(c, c.diagnostics("docs/tests.rst")); len(got) == 5 {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Error("the poller did not pick up the new file")
}

func TestSettings(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	c.notify("workspace/didChangeConfiguration", `{"settings":{"seg":{"unsatisfiedSeverity":"information","codesBaseURL":"https://docs.example/seg/codes.html#"}}}`)
	ds := c.diagnostics("docs/req.rst")
	if ds[0].Code != "unsatisfied" || ds[0].Severity != 3 || ds[0].CodeDescription.Href != "https://docs.example/seg/codes.html#unsatisfied" {
		t.Errorf("after the settings: %+v", ds[0])
	}
	c.notify("workspace/didChangeConfiguration", `{"settings":{"seg":{"unsatisfiedSeverity":"off"}}}`)
	if got := brief(c, c.diagnostics("docs/req.rst")); len(got) != 1 {
		t.Errorf("unsatisfied off: %v", got)
	}
}

// A start-up through the parse cache (cold, then warm) publishes what a
// start-up without it does, open buffers included.
func TestParseCache(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := writeTree(t, fixture)
	var runs [][]string
	for i, cached := range []bool{false, true, true} {
		cfg := at
		if cached {
			cfg.Open = func(root string) (*check.Tree, check.Options, error) {
				tr, err := check.Open(root, "")
				if err != nil {
					return nil, check.Options{}, err
				}
				return tr, check.Options{Cache: cache.Open(dir, "test", tr.Config.Parser)}, nil
			}
		}
		c := start(t, root, cfg, "")
		c.open("docs/tests.rst", fixture["docs/tests.rst"])
		c.edit("docs/tests.rst", 2, r(2, 30, 2, 35), "REQ-2")
		var all []string
		for _, f := range []string{"docs/req.rst", "docs/tests.rst"} {
			all = append(all, brief(c, c.diagnostics(f))...)
		}
		runs = append(runs, all)
		c.shutdown()
		if entries, _ := os.ReadDir(dir); cached != (len(entries) > 0) && i < 2 {
			t.Errorf("run %d: %d entries in the parse cache", i, len(entries))
		}
	}
	for i := 1; i < len(runs); i++ {
		if diff := cmp.Diff(runs[0], runs[i]); diff != "" {
			t.Errorf("run %d through the cache differs (-no cache +cache):\n%s", i, diff)
		}
	}
}

// A buffer not saved yet counts where its file would; one under _build
// does not, as seg check would not read it.
func TestUnsavedNewFile(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	c.open("docs/_build/x.rst", ".. sreq:: Built\n   :id: REQ-3\n")
	if got := brief(c, c.diagnostics("docs/tests.rst"))[1]; got != "2:30-2:45 unresolved-link 1" {
		t.Errorf("a buffer under _build counted: %s", got)
	}
	c.open("docs/new.rst", ".. sreq:: New\n   :id: REQ-3\n")
	if got := brief(c, c.diagnostics("docs/tests.rst"))[1]; got != "7:4-7:9 unknown-option 1" {
		t.Errorf("the unsaved new file did not count: %s", got)
	}
	if got := brief(c, c.diagnostics("docs/new.rst")); len(got) != 1 || !strings.Contains(got[0], "unsatisfied") {
		t.Errorf("the unsaved new file's own findings: %v", got)
	}
	c.notify("textDocument/didClose", fmt.Sprintf(`{"textDocument":{"uri":%q}}`, c.uri("docs/new.rst")))
	if got := brief(c, c.diagnostics("docs/tests.rst"))[1]; got != "2:30-2:45 unresolved-link 1" {
		t.Errorf("after closing the unsaved file: %s", got)
	}
}

// revision is the revision a check of root gives node id.
func revisionOf(t *testing.T, root, id string) string {
	t.Helper()
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(check.Options{At: at.At})
	if err != nil {
		t.Fatal(err)
	}
	n, ok := c.Graph.Lookup(id)
	if !ok {
		t.Fatalf("no node %s", id)
	}
	return revision.String(n.Revision())
}

// Statuses, revisions and stale links: the diagnostics and the hover say
// whether a requirement is failing or unproven, the hover gives the
// node's revision and the links to and from it that no longer hold, and
// a stale link's code action pins it again in seg.lock (which the editor
// applies; the server writes nothing).
func TestRevisions(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"docs/req.rst": ".. sreq:: Parent\n   :id: SYS-1\n\n.. sreq:: Brake\n   :id: REQ-1\n   :refines: SYS-1\n",
		"docs/tests.rst": ".. test:: T\n   :id: TS-1\n   :verifies: REQ-1\n\n.. impl:: I\n   :id: IMPL-1\n   :implements: REQ-1\n\n" +
			".. outcome:: Run\n   :id: OUT-1\n   :confirms: TS-1\n   :witnesses: IMPL-1\n   :result: failed\n",
	}
	root := writeTree(t, files)
	rev := revisionOf(t, root, "REQ-1")
	lock := "TS-1 verifies REQ-1 0123456789abcdef\n"
	writeFiles(t, root, map[string]string{"seg.lock": lock})
	c := start(t, root, at, `{"workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true}}}`)

	ds := c.diagnostics("docs/tests.rst")
	if got := brief(c, ds); fmt.Sprint(got) != "[2:14-2:19 stale-link 2]" {
		t.Fatalf("tests.rst: %v", got)
	}
	if want := fmt.Sprintf(`link TS-1 verifies REQ-1 is stale: "REQ-1" changed since it was reviewed (pinned 0123456789abcdef, now %s)`, rev); ds[0].Message != want {
		t.Errorf("stale-link message: %s", ds[0].Message)
	}
	req := c.diagnostics("docs/req.rst")
	var msgs []string
	for _, d := range req {
		msgs = append(msgs, d.Message)
	}
	want := []string{`requirement "SYS-1" is failing: refined by "REQ-1", which is unsatisfied`,
		`requirement "REQ-1" is failing: no active verifies edge: only "TS-1" (stale)`}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("unsatisfied (-want +got):\n%s", diff)
	}

	var h struct {
		Contents struct{ Value string } `json:"contents"`
	}
	c.callRaw("textDocument/hover", c.at("docs/req.rst", 4, 9), &h)
	for _, w := range []string{"**failing** (leaf, evaluated at 2026-11-29)", "docs/req.rst:4, revision `" + rev + "`",
		"1 test(s), 1 outcome(s) of them (1 counted, 0 skipped, 0 excluded), 1 implementation(s)",
		"- link `TS-1 verifies REQ-1` is **stale**: pinned `0123456789abcdef`, now `" + rev + "` (docs/tests.rst:3)"} {
		if !strings.Contains(h.Contents.Value, w) {
			t.Errorf("hover lacks %q:\n%s", w, h.Contents.Value)
		}
	}

	type action struct {
		Title string        `json:"title"`
		Edit  workspaceEdit `json:"edit"`
	}
	var acts []action
	c.callRaw("textDocument/codeAction", fmt.Sprintf(`{"textDocument":{"uri":%q},"range":%s,"context":{"diagnostics":[]}}`,
		c.uri("docs/tests.rst"), `{"start":{"line":2,"character":15},"end":{"line":2,"character":15}}`), &acts)
	if len(acts) != 1 || acts[0].Title != "Accept the link: pin it in seg.lock to its target's revision "+rev {
		t.Fatalf("code actions: %+v", acts)
	}
	texts := map[string]string{"seg.lock": lock}
	apply(t, c, texts, acts[0].Edit)
	if texts["seg.lock"] != "TS-1 verifies REQ-1 "+rev+"\n" {
		t.Errorf("seg.lock after the action: %q", texts["seg.lock"])
	}
	if data, _ := os.ReadFile(filepath.Join(root, "seg.lock")); string(data) != lock {
		t.Error("the server wrote seg.lock")
	}
	// The editor saves seg.lock: the link holds again.
	writeFiles(t, root, texts)
	c.notify("workspace/didChangeWatchedFiles", fmt.Sprintf(`{"changes":[{"uri":%q,"type":2}]}`, c.uri("seg.lock")))
	if got := c.diagnostics("docs/tests.rst"); len(got) != 0 {
		t.Errorf("after accepting: %v", brief(c, got))
	}
	if got := c.diagnostics("docs/req.rst"); len(got) != 2 || !strings.Contains(got[1].Message, `"REQ-1" is failing: outcome "OUT-1"`) {
		t.Errorf("after accepting, REQ-1: %v", got)
	}
}

// The "did you mean" of a link state and of a result replace the word
// as written, and only it.
func TestStateAndResultFixes(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"docs/a.rst": ".. sreq:: R\n   :id: R-1\n\n.. test:: T\n   :id: T-1\n   :verifies: R-1 (suspekt)\n\n" +
			".. impl:: I\n   :id: I-1\n   :implements: R-1\n\n.. outcome:: O\n   :id: O-1\n   :confirms: T-1\n   :witnesses: I-1\n   :result: pased\n",
	}
	root := writeTree(t, files)
	c := start(t, root, at, "")
	type action struct {
		Title string        `json:"title"`
		Edit  workspaceEdit `json:"edit"`
	}
	var acts []action
	c.callRaw("textDocument/codeAction", fmt.Sprintf(`{"textDocument":{"uri":%q},"range":%s,"context":{"diagnostics":[]}}`,
		c.uri("docs/a.rst"), `{"start":{"line":0,"character":0},"end":{"line":16,"character":0}}`), &acts)
	var titles []string
	texts := map[string]string{"docs/a.rst": files["docs/a.rst"]}
	for _, a := range acts {
		titles = append(titles, a.Title)
		apply(t, c, texts, a.Edit)
	}
	if diff := cmp.Diff([]string{`Change to "suspect"`, `Change to "passed"`}, titles); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	for _, w := range []string{":verifies: R-1 (suspect)\n", ":result: passed\n"} {
		if !strings.Contains(texts["docs/a.rst"], w) {
			t.Errorf("after the actions the text lacks %q:\n%s", w, texts["docs/a.rst"])
		}
	}
}

// Results files, the files :source: entries name and seg.lock are watched
// by no one: a server with nothing to do runs the analysis again every
// so often (Config.Recheck) and publishes what a test run outside the
// editor changed.
func TestRecheck(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("waits for the recheck")
	}
	junit := func(failure string) string {
		return "<?xml version=\"1.0\"?>\n<testsuites>\n  <testsuite name=\"suite\" timestamp=\"2026-11-20T10:00:00\">\n" +
			"    <testcase classname=\"suite\" name=\"case_a\" time=\"0.1\">" + failure + "</testcase>\n  </testsuite>\n</testsuites>\n"
	}
	root := writeTree(t, map[string]string{
		"seg.toml": "[[results]]\npath = \"results/*.xml\"\nwitnesses = [\"I1\"]\n",
		"docs/r.rst": ".. sreq:: R\n   :id: R1\n\n.. test:: T\n   :id: T1\n   :verifies: R1\n   :cases: suite.case_a\n\n" +
			".. impl:: I\n   :id: I1\n   :implements: R1\n",
		"results/run.xml": junit(""),
	})
	cfg := at
	cfg.Recheck = 50 * time.Millisecond
	c := start(t, root, cfg, "")
	if got := brief(c, c.diagnostics("docs/r.rst")); len(got) != 0 {
		t.Fatalf("setup: %v", got)
	}
	// The tests run again outside the editor, and one fails; nothing
	// tells the server.
	if err := os.WriteFile(filepath.Join(root, "results/run.xml"), []byte(junit(`<failure message="boom"/>`)), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if got := brief(c, c.diagnostics("docs/r.rst")); len(got) == 1 && strings.Contains(got[0], "unsatisfied") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("the failed case never showed: %v", brief(c, c.diagnostics("docs/r.rst")))
}

// A directive written with a space before its "::" (".. sreq :: T",
// which docutils reads as the directive) has its name where it is: the
// symbol of a node without an :id: selects the name, as it does for
// ".. sreq:: T", not the empty place before the "::".
func TestDirectiveNameBeforeSpacedColons(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"docs/a.rst": ".. sreq :: Spaced\n\n.. sreq:: Tight\n",
	})
	c := start(t, root, at, "")
	var syms []struct {
		Name           string `json:"name"`
		SelectionRange rng    `json:"selectionRange"`
	}
	c.callRaw("textDocument/documentSymbol", fmt.Sprintf(`{"textDocument":{"uri":%q}}`, c.uri("docs/a.rst")), &syms)
	if len(syms) != 2 || syms[0].SelectionRange != r(0, 3, 0, 7) || syms[1].SelectionRange != r(2, 3, 2, 7) {
		t.Errorf("symbols %+v: want each to select its directive name, 0:3-0:7 and 2:3-2:7", syms)
	}
}
