package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A source file with code tags ([code] in seg.toml) is part of the tree:
// its tags' unresolved IDs are diagnostics in it, as seg check reports
// them, and an unsaved buffer of it counts (the tag typed in the editor).
func TestCodeFileDiagnostics(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"seg.toml":      "[code]\npaths = [\"src/**\"]\n",
		"docs/req.rst":  ".. sreq:: Brake\n   :id: REQ-1\n",
		"src/brake.py":  "def brake():\n    # req-Id: REQ-1\n    pass\n",
		"src/other.py":  "# req-Id: REQ-9\n",
		"docs/test.rst": ".. test:: T\n   :id: T-1\n   :verifies: REQ-1\n",
	})
	c := startWith(t, root, at, `{"general":{"positionEncodings":["utf-8"]}}`, defaults)
	if got := plain(c.diagnostics("src/other.py")); !cmp.Equal(got, []string{"0:10-0:15 unresolved-link 1"}) {
		t.Errorf("src/other.py: %v", got)
	}
	if got := plain(c.diagnostics("src/brake.py")); len(got) != 0 {
		t.Errorf("src/brake.py: %v", got)
	}
	// Typed, not saved: a tag naming an ID that does not exist.
	c.open("src/brake.py", "def brake():\n    # req-Id: REQ-1, REQ-2\n    pass\n")
	if got := plain(c.diagnostics("src/brake.py")); !cmp.Equal(got, []string{"1:21-1:26 unresolved-link 1"}) {
		t.Errorf("src/brake.py, unsaved: %v", got)
	}
	// Go to definition and hover on a tag's ID: the requirement.
	var loc location
	c.callRaw("textDocument/definition", c.at("src/brake.py", 1, 17), &loc)
	if c.rel(loc.URI) != "docs/req.rst" || loc.Range.String() != "0:0-0:15" {
		t.Errorf("definition from a code tag: %s %s", c.rel(loc.URI), loc.Range)
	}
	var hover struct {
		Contents struct {
			Value string `json:"value"`
		} `json:"contents"`
	}
	c.callRaw("textDocument/hover", c.at("src/brake.py", 1, 17), &hover)
	if !strings.Contains(hover.Contents.Value, "`REQ-1`") {
		t.Errorf("hover on a code tag: %q", hover.Contents.Value)
	}
	// A word that is no ID, and plain code, have neither.
	var none json.RawMessage
	c.callRaw("textDocument/definition", c.at("src/brake.py", 0, 5), &none)
	if string(none) != "null" {
		t.Errorf("definition on code: %s", none)
	}
	// Find references on the requirement lists the tag that implements it.
	var refs []location
	c.callRaw("textDocument/references", c.at("docs/req.rst", 1, 9)[:len(c.at("docs/req.rst", 1, 9))-1]+`,"context":{"includeDeclaration":false}}`, &refs)
	var got []string
	for _, l := range refs {
		got = append(got, c.rel(l.URI)+"@"+l.Range.String())
	}
	if want := []string{"docs/test.rst@2:14-2:19", "src/brake.py@1:14-1:19"}; !cmp.Equal(got, want) {
		t.Errorf("references of REQ-1: %v, want %v", got, want)
	}
	// Completion after a tag's marker offers requirements; elsewhere in
	// code, nothing.
	c.edit("src/brake.py", 2, r(2, 0, 2, 0), "    # req-Id: RE\n")
	var list struct {
		Items []struct {
			Label string `json:"label"`
		} `json:"items"`
	}
	c.callRaw("textDocument/completion", c.at("src/brake.py", 2, 16), &list)
	if len(list.Items) != 1 || list.Items[0].Label != "REQ-1" {
		t.Errorf("completion in a code tag: %+v", list.Items)
	}
	c.callRaw("textDocument/completion", c.at("src/brake.py", 0, 3), &list)
	if len(list.Items) != 0 {
		t.Errorf("completion in code: %+v", list.Items)
	}
	compareWithCheck(t, root, nil)
}
