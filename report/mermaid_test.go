package report

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// HostileIDs are IDs a permissive id_pattern lets through that are
// markup, Mermaid syntax or entity codes. Those without a link separator
// (, ; |) or a space are also link targets in HostileTree.
var hostileIDs = []string{
	`<script>alert(1)</script>`,
	`<img/src=x/onerror=window.pwned=1>`,
	`a"b`, `"]`, `[x]`, `(y)`, `{z}`, `-->`, `A-.->B`, `x--o`,
	`#quot;`, `#60;b`, `&amp;`, `&lt;i&gt;`, "`md`", `end`, `style`,
	`tests/test_style.py::case#2`, `classDef:x#1`, `%%`, `n0`, `Ünï≥`,
}

// hostileTree is a tree whose requirements carry hostileIDs, each
// verified by a test whose ID is hostile too, so node and edge lines and
// verdicts all meet them.
func hostileTree() (map[string]string, *parser.Config) {
	var b strings.Builder
	for i, id := range hostileIDs {
		b.WriteString(".. sreq:: R\n   :id: " + id + "\n\n")
		if !strings.ContainsAny(id, ",;| ") {
			b.WriteString(".. test:: T\n   :id: T" + strconv.Itoa(i) + id + "\n   :verifies: " + id + "\n\n")
		}
	}
	cfg := parser.DefaultConfig()
	cfg.IDPattern = regexp.MustCompile(`^.+$`)
	return map[string]string{"docs/h.rst": b.String()}, cfg
}

// mermaidLine is a node or an edge line of WriteMermaid's output: nodes
// are n0, n1, ..., a label is a quoted string with no quote, markup,
// pipe, backtick or colon in it and every # starting an entity code; an
// edge label sits between pipes.
var (
	mermaidNode   = regexp.MustCompile(`^  (n\d+)(\[|\(\[|\[\[|\[/|\{\{)"([^"<>&|` + "`" + `:]*?)(<br/>(satisfied|unsatisfied))?"(\]|\]\)|\]\]|/\]|\}\})$`)
	mermaidEdge   = regexp.MustCompile(`^  (n\d+) (-->|-\.->)\|([^"<>&|` + "`" + `:]*)\| (n\d+)$`)
	mermaidEntity = regexp.MustCompile(`#(\d+|quot);`)
)

// unMermaid undoes the entity codes, as Mermaid does before it renders a
// label, and fails on a # that starts none.
func unMermaid(t *testing.T, s string) string {
	t.Helper()
	if strings.Count(s, "#") != len(mermaidEntity.FindAllString(s, -1)) {
		t.Errorf("label %q has a # that starts no entity code", s)
	}
	return mermaidEntity.ReplaceAllStringFunc(s, func(m string) string {
		if m == "#quot;" {
			return `"`
		}
		n, _ := strconv.Atoi(m[1 : len(m)-1])
		return string(rune(n))
	})
}

// Every ID, however hostile, is only label text in the Mermaid output:
// every line is a node, edge, class or comment line of the expected shape,
// and decoding the labels gives back exactly the IDs and edge types.
func TestMermaidHostileIDs(t *testing.T) {
	tree, cfg := hostileTree()
	fset := source.NewFileSet()
	text := tree["docs/h.rst"]
	f := parser.ParseFile(fset.Add("docs/h.rst", len(text), source.Docutils), []byte(text), cfg)
	if len(f.Diagnostics) > 0 {
		t.Fatalf("the hostile tree does not parse cleanly: %v", f.Diagnostics)
	}
	c := checkOf(fset, []*parser.File{f}, nil)
	var out bytes.Buffer
	if err := WriteMermaid(&out, c); err != nil {
		t.Fatal(err)
	}
	var ids, edges []string
	nodes := map[string]string{} // n0 -> ID
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	for i, line := range lines {
		switch {
		case i == 0 && strings.HasPrefix(line, "%% seg graph, evaluated at "),
			i == 1 && line == "flowchart BT",
			strings.HasPrefix(line, "  classDef "),
			regexp.MustCompile(`^  class n\d+ (satisfied|unsatisfied)$`).MatchString(line),
			regexp.MustCompile(`^  %% n\d+ revision [0-9a-f]{16}$`).MatchString(line):
		case mermaidNode.MatchString(line):
			m := mermaidNode.FindStringSubmatch(line)
			id := unMermaid(t, m[3])
			nodes[m[1]] = id
			ids = append(ids, id)
		case mermaidEdge.MatchString(line):
			m := mermaidEdge.FindStringSubmatch(line)
			edges = append(edges, nodes[m[1]]+" "+unMermaid(t, m[3])+" "+nodes[m[4]])
		default:
			t.Errorf("line %d is not a line WriteMermaid writes: %q", i+1, line)
		}
	}
	var wantIDs, wantEdges []string
	for i, id := range hostileIDs {
		wantIDs = append(wantIDs, id)
		if !strings.ContainsAny(id, ",;| ") {
			test := "T" + strconv.Itoa(i) + id
			wantIDs = append(wantIDs, test)
			wantEdges = append(wantEdges, test+" verifies "+id)
		}
	}
	slices.Sort(wantIDs)
	slices.Sort(ids)
	slices.Sort(wantEdges)
	slices.Sort(edges)
	if d := cmp.Diff(wantIDs, ids); d != "" {
		t.Errorf("node labels (-want +got):\n%s", d)
	}
	if d := cmp.Diff(wantEdges, edges); d != "" {
		t.Errorf("edges (-want +got):\n%s", d)
	}
}
