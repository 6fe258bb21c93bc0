package cli

// seg graph --format mermaid rendered by the real Mermaid (its browser
// bundle, from npm) in headless Chromium: the diagram parses, and every
// node and edge label shows the ID or link type as written, however
// hostile, at Mermaid's strict and loose security levels.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
)

// mermaidJS finds Mermaid's browser bundle (dist/mermaid.min.js of the
// npm package mermaid) named by SEG_MERMAID_JS, or skips the test; with
// SEG_REQUIRE_MERMAID=1 (CI, which installs it) it fails instead.
func mermaidJS(t *testing.T) string {
	t.Helper()
	p := os.Getenv("SEG_MERMAID_JS")
	if p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	msg := "set SEG_MERMAID_JS to Mermaid's dist/mermaid.min.js (npm install mermaid@11) to render seg's Mermaid output"
	if os.Getenv("SEG_REQUIRE_MERMAID") == "1" {
		t.Fatal(msg + " (SEG_REQUIRE_MERMAID=1)")
	}
	t.Skip(msg)
	return ""
}

// mermaidRendered is what the page reads back from the rendered diagram.
type mermaidRendered struct {
	Error  string   `json:"error"`
	Nodes  []string `json:"nodes"`
	Edges  []string `json:"edges"`
	Markup int      `json:"markup"` // script, img, b, i elements in the diagram
	Pwned  bool     `json:"pwned"`
}

func TestMermaidInBrowser(t *testing.T) {
	js := mermaidJS(t)
	ctx := browser(t)
	root := "testdata/hostile-ids"
	code, diagram, stderr := run("graph", "--format", "mermaid", "--at", mxAt, root)
	// graph is not a gate (docs/cli.md): it exits 0 whatever the verdicts.
	if code != 0 {
		t.Fatalf("seg graph --format mermaid: exit %d, want 0\n%s", code, stderr)
	}
	// What the labels must say: the graph's own IDs and link types.
	code, graphJSON, stderr := run("graph", "--format", "json", "--at", mxAt, root)
	if code != 0 {
		t.Fatalf("seg graph --format json: exit %d\n%s", code, stderr)
	}
	var g struct {
		Nodes []struct{ ID, Verdict string }
		Edges []struct{ Type string }
	}
	if err := json.Unmarshal([]byte(graphJSON), &g); err != nil {
		t.Fatal(err)
	}
	var wantNodes, wantEdges []string
	for _, n := range g.Nodes {
		wantNodes = append(wantNodes, n.ID+n.Verdict)
	}
	for _, e := range g.Edges {
		wantEdges = append(wantEdges, e.Type)
	}
	slices.Sort(wantNodes)
	slices.Sort(wantEdges)

	page := filepath.Join(t.TempDir(), "mermaid.html")
	html := `<!doctype html><meta charset="utf-8"><div id="out"></div><script src="` + fileURL(t, js) + `"></script>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	mxDo(t, ctx, chromedp.Navigate(fileURL(t, page)))
	text, _ := json.Marshal(diagram)
	for i, level := range []string{"strict", "loose"} {
		t.Run(level, func(t *testing.T) {
			expr := fmt.Sprintf(`(async () => {
	const out = document.getElementById("out");
	out.innerHTML = "";
	window.pwned = false;
	mermaid.initialize({startOnLoad: false, securityLevel: %q});
	try {
		await mermaid.parse(%s);
		const {svg} = await mermaid.render("g%d", %s);
		out.innerHTML = svg;
	} catch (e) {
		return {error: String(e && e.message || e)};
	}
	await new Promise(r => setTimeout(r, 100));
	return {
		nodes: Array.from(out.querySelectorAll("g.node")).map(n => n.textContent),
		edges: Array.from(out.querySelectorAll("g.edgeLabel")).map(n => n.textContent),
		markup: out.querySelectorAll("script, img, b, i").length,
		pwned: window.pwned === 1,
	};
})()`, level, text, i, text)
			got := mxEval[mermaidRendered](t, ctx, expr, chromedp.EvalAwaitPromise)
			if got.Error != "" {
				t.Fatalf("Mermaid does not render seg's diagram: %s\n%s", got.Error, diagram)
			}
			slices.Sort(got.Nodes)
			slices.Sort(got.Edges)
			if d := cmp.Diff(wantNodes, got.Nodes); d != "" {
				t.Errorf("node labels (-graph IDs and verdicts +rendered):\n%s", d)
			}
			if d := cmp.Diff(wantEdges, got.Edges); d != "" {
				t.Errorf("edge labels (-graph link types +rendered):\n%s", d)
			}
			if got.Markup != 0 || got.Pwned {
				t.Errorf("an ID became markup: %d elements, script ran: %v", got.Markup, got.Pwned)
			}
		})
	}
}
