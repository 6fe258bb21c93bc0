package postprocess_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/check"
)

// run checks a tree written from files (slash paths) and returns the check.
func run(t *testing.T, files map[string]string) *check.Check {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(check.Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), AllowEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// diags are the check's diagnostics as "file:line code: message".
func diags(c *check.Check) []string {
	var out []string
	for _, d := range c.Diagnostics {
		p := c.Files.Position(d.Span.Start)
		out = append(out, fmt.Sprintf("%s:%d %s: %s", p.Filename, p.Line, d.Code.Name, d.Message))
	}
	return out
}

// supDiags are the check's suppressed diagnostics, as diags writes them.
func supDiags(c *check.Check) []string {
	var out []string
	for _, d := range c.Suppressed {
		p := c.Files.Position(d.Span.Start)
		out = append(out, fmt.Sprintf("%s:%d %s: %s", p.Filename, p.Line, d.Code.Name, d.Message))
	}
	return out
}

// field is what a need holds: an attribute, or the targets of a link
// option in order.
func field(c *check.Check, id, name string) string {
	g := c.Graph
	n, ok := g.Lookup(id)
	if !ok {
		return "<no need " + id + ">"
	}
	if name == "title" {
		return n.Title()
	}
	var links []string
	found := false
	for e := range g.Out(n, 0) {
		if e.Option() == name {
			found = true
			links = append(links, g.To(e).ID())
		}
	}
	for o := range g.OpenLinks() {
		if g.OpenFrom(o) == n && o.Option() == name {
			found = true
			links = append(links, o.Target()+"?")
		}
	}
	if found {
		slices.Sort(links)
		return strings.Join(links, ",")
	}
	for _, a := range n.Attrs() {
		if a.Name == name {
			return a.Value
		}
	}
	return "<none>"
}

func ids(c *check.Check) []string {
	var out []string
	for n := range c.Graph.Nodes() {
		out = append(out, n.ID())
	}
	return out
}

const project = `[project]
name = "P"
version = "1"

[needs]
types = [
    {directive = "req", title = "Requirement", prefix = "R_"},
    {directive = "spec", title = "Specification", prefix = "S_"},
]
extra_options = ["owner", "hours", "effort", "note"]
extra_links = [{option = "tests", incoming = "tested by", outgoing = "tests"}]
`

// :delete: true removes the need and what is inside it, before IDs are
// compared: the same ID defined again is no duplicate.
func TestDelete(t *testing.T) {
	c := run(t, map[string]string{"ubproject.toml": project, "a.rst": `
.. req:: Old version
   :id: REQ_1
   :delete: true

   .. spec:: Inside the deleted one
      :id: SPEC_IN

.. req:: New version
   :id: REQ_1

.. req:: Kept
   :id: REQ_2
   :delete: false
`})
	if d := cmp.Diff([]string{"REQ_1", "REQ_2"}, ids(c)); d != "" {
		t.Errorf("needs (-want +got):\n%s", d)
	}
	if got := field(c, "REQ_1", "title"); got != "New version" {
		t.Errorf("REQ_1 is %q", got)
	}
	if len(c.Diagnostics) > 0 {
		t.Errorf("diagnostics: %q", diags(c))
	}
}

// needextend: an ID (bare or <ID>) or a filter ("..." quotes one) selects
// needs; :option: replaces, :+option: appends (a space between strings,
// items to tags, links once), :-option: removes; applied in document
// order, each filter seeing what the needextends before it did.
func TestNeedextend(t *testing.T) {
	c := run(t, map[string]string{"ubproject.toml": project, "a.rst": `
.. req:: One
   :id: REQ_1
   :status: open
   :owner: Foo
   :tags: a, b
   :links: REQ_2, REQ_3

.. req:: Two
   :id: REQ_2
   :tags: x

.. req:: Three
   :id: REQ_3
   :links: REQ_1

.. needextend:: REQ_1
   :status: closed
   :+owner: and me
   :+tags: c
   :+links: REQ_2, REQ_4

.. needextend:: <REQ_3>
   :-links:
   :note: gone

.. needextend:: "status == 'closed'"
   :+tags: was-closed

.. needextend:: id == "REQ_2" or "was-closed" in tags
   :effort: 5
`, "b.rst": `
.. req:: Four
   :id: REQ_4

.. needextend:: "c.this_doc()"
   :owner: B

.. needextend:: REQ_NOWHERE
   :status: x

.. needextend:: REQ_4
   :id: NEW
   :color: red
`})
	want := map[string]string{
		"REQ_1 status": "closed", "REQ_1 owner": "Foo and me", "REQ_1 tags": "a, b, c, was-closed",
		"REQ_1 links": "REQ_2,REQ_3,REQ_4", "REQ_1 effort": "5",
		"REQ_2 effort": "5", "REQ_2 tags": "x",
		"REQ_3 links": "<none>", "REQ_3 note": "gone",
		"REQ_4 owner": "B", "REQ_1 note": "<none>",
	}
	got := map[string]string{}
	for k := range want {
		id, name, _ := strings.Cut(k, " ")
		got[k] = field(c, id, name)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("fields (-want +got):\n%s", d)
	}
	wantDiags := []string{
		`b.rst:8 needextend-no-target: needextend: no need has the ID "REQ_NOWHERE"`,
		`b.rst:12 invalid-needextend: needextend cannot change :id:; the option is ignored`,
		`b.rst:13 invalid-needextend: needextend cannot change :color:; the option is ignored`,
	}
	if d := cmp.Diff(wantDiags, diags(c)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
}

// A filter seg cannot evaluate is a diagnostic at its place, and the
// needextend changes nothing.
func TestNeedextendFilterErrors(t *testing.T) {
	c := run(t, map[string]string{"ubproject.toml": project, "a.rst": `
.. req:: One
   :id: REQ_1

.. needextend:: [n for n in tags] == []
   :status: x

.. needextend:: statos == "open"
   :status: y
`})
	want := []string{
		`a.rst:5 unsupported-filter: filter "[n for n in tags] == []": a comprehension in a filter`,
		`a.rst:8 invalid-filter: filter "statos == \"open\"": name "statos" is not defined (no need field of that name)`,
	}
	if d := cmp.Diff(want, diags(c)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
	if got := field(c, "REQ_1", "status"); got != "<none>" {
		t.Errorf("status %q", got)
	}
	// The column is the construct's.
	p := c.Files.Position(c.Diagnostics[0].Span.Start)
	if p.Column != len(".. needextend:: [n ")+1 {
		t.Errorf("unsupported-filter at column %d", p.Column)
	}
}

// A need nested in another has it as parent_needs, whatever is written:
// sphinx-needs sets the field from where the need is.
func TestParentNeeds(t *testing.T) {
	c := run(t, map[string]string{"ubproject.toml": project, "a.rst": `
.. req:: Parent
   :id: REQ_P
   :parent_needs: REQ_X

   .. spec:: Child
      :id: SPEC_C

      .. note::

         .. spec:: Grandchild
            :id: SPEC_G

.. req:: Other
   :id: REQ_X
`})
	want := map[string]string{"SPEC_C": "REQ_P", "SPEC_G": "SPEC_C", "REQ_P": "<none>", "REQ_X": "<none>"}
	got := map[string]string{}
	for id := range want {
		got[id] = field(c, id, "parent_needs")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("parent_needs (-want +got):\n%s", d)
	}
}

// The built-in dynamic functions, computed once every needextend is
// applied; a copy reads the computed value whatever the order of the
// needs.
func TestDynamicFunctions(t *testing.T) {
	c := run(t, map[string]string{"ubproject.toml": project, "a.rst": `
.. req:: Copies a copy
   :id: REQ_A
   :status: [[copy("status", "REQ_C")]]
   :owner: [[copy("owner", "REQ_B", upper=True)]] and [[echo("x")]]

.. req:: Source
   :id: REQ_B
   :status: open
   :owner: alice
   :hours: 7
   :tags: t1, t2

.. req:: Copies later
   :id: REQ_C
   :status: [[copy("status", "REQ_B")]]
   :tags: [[copy("tags", "REQ_B")]], t3
   :links: REQ_B, [[copy("links", "REQ_D")]]
   :effort: [[calc_sum("hours", links_only=True)]]
   :note: [[check_linked_values("ok", "status", "open")]]

.. req:: Links
   :id: REQ_D
   :hours: 15
   :links: REQ_A
   :note: [[test("a", 1, k=True)]]

.. spec:: From content
   :id: SPEC_1
   :links: [[links_from_content()]]

   See :need:` + "`REQ_B`" + ` and :need:` + "`the other <REQ_D>`" + `.

.. spec:: Unknown function
   :id: SPEC_2
   :note: [[my_func()]]
   :links: [[copy("links", "REQ_NOWHERE")]]
`})
	want := map[string]string{
		"REQ_A status": "open", "REQ_A owner": "ALICE and x",
		"REQ_C status": "open", "REQ_C tags": "t1, t2, t3", "REQ_C links": "REQ_A,REQ_B",
		// REQ_A's hours are not set: float() of nothing counts nothing.
		"REQ_C effort": "7.0",
		// Every need REQ_C links to has status open (REQ_A copies it).
		"REQ_C note":   "ok",
		"REQ_D note":   "Test output of need REQ_D. args: ('a', 1). kwargs: {'k': True}",
		"SPEC_1 links": "REQ_B,REQ_D", "SPEC_2 note": "[[my_func()]]",
		"SPEC_2 links": `[[copy("links", "REQ_NOWHERE")]]?`,
	}
	got := map[string]string{}
	for k := range want {
		id, name, _ := strings.Cut(k, " ")
		got[k] = field(c, id, name)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("fields (-want +got):\n%s", d)
	}
	wantDiags := []string{
		`a.rst:36 unsupported-dynamic-function: [[my_func()]]: "my_func" is not one of sphinx-needs' built-in functions seg computes (echo, test, copy, check_linked_values, calc_sum, links_from_content)`,
		`a.rst:37 invalid-dynamic-function: [[copy("links", "REQ_NOWHERE")]]: copy(): no need has the ID "REQ_NOWHERE"`,
	}
	if d := cmp.Diff(wantDiags, diags(c)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
}

// IDs sphinx-needs generates for needs without one: the type's prefix and
// the upper-case SHA-1 of the title (of the content without a title), cut
// to needs_id_length; values checked with Python's hashlib.
func TestGeneratedIDs(t *testing.T) {
	proj := strings.Replace(project, "[needs]\n", "[needs]\nid_regex = \"^[A-Z0-9_]+\"\n", 1)
	c := run(t, map[string]string{"ubproject.toml": proj, "a.rst": `
.. req:: Motor control

.. req::

   Content only.

.. spec:: Linked
   :links: R_6F193
`})
	// hashlib.sha1(b"Motor control").hexdigest().upper()[:5] == "6F193"
	// hashlib.sha1(b"Content only.").hexdigest().upper()[:5] == "091EC"
	// hashlib.sha1(b"Linked").hexdigest().upper()[:5] == "A089F"
	want := []string{"R_091EC", "R_6F193", "S_A089F"}
	if d := cmp.Diff(want, ids(c)); d != "" {
		t.Errorf("IDs (-want +got):\n%s", d)
	}
	if got := field(c, "S_A089F", "links"); got != "R_6F193" {
		t.Errorf("a link to a generated ID: %q", got)
	}
}

// A title on several lines keeps its line breaks, as sphinx-needs keeps
// the directive's argument.
func TestMultiLineTitle(t *testing.T) {
	c := run(t, map[string]string{"ubproject.toml": project, "a.rst": `
.. req:: First line
   second line
     indented
   :id: REQ_1
`})
	if got := field(c, "REQ_1", "title"); got != "First line\nsecond line\n  indented" {
		t.Errorf("title %q", got)
	}
}

// External needs: read from a local needs.json with their prefix; links
// to them resolve; they are no need of this tree to evaluate, and stand in
// their file. A json_url is never fetched: a diagnostic says how to give
// a local copy.
func TestExternalNeeds(t *testing.T) {
	ext := `{"current_version": "2", "project": "Other", "versions": {"2": {"needs": {
  "REQ_1": {"id": "REQ_1", "type": "req", "title": "Theirs", "status": "open", "tags": ["x"], "links": ["REQ_9"]}
}}}}`
	proj := project + `external_needs = [
    {base_url = "https://o.example", json_path = "ext/needs.json", id_prefix = "ot_"},
    {base_url = "https://u.example", json_url = "https://u.example/needs.json"},
]
`
	c := run(t, map[string]string{"ubproject.toml": proj, "ext/needs.json": ext, "a.rst": `
.. req:: Ours
   :id: REQ_OURS
   :links: OT_REQ_1
`})
	n, ok := c.Graph.Lookup("OT_REQ_1")
	if !ok {
		t.Fatalf("no external need; nodes %q, diagnostics %q", ids(c), diags(c))
	}
	p := c.Files.Position(n.Pos())
	if !n.IsExternal() || n.Kind().String() != "need" || p.Filename != "ext/needs.json" || p.Line != 2 {
		t.Errorf("external need: external %v, kind %s, at %s", n.IsExternal(), n.Kind(), p)
	}
	if got := field(c, "REQ_OURS", "links"); got != "OT_REQ_1" {
		t.Errorf("links %q", got)
	}
	if got := field(c, "OT_REQ_1", "status"); got != "open" {
		t.Errorf("status %q", got)
	}
	want := []string{`ubproject.toml:14 needs-url-not-fetched: needs_external_needs names https://u.example/needs.json: seg never fetches anything`}
	if d := cmp.Diff(want, diags(c)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}

	// A local copy named in seg.toml stands for the URL.
	c = run(t, map[string]string{"ubproject.toml": proj, "ext/needs.json": ext, "vendor/u.json": strings.ReplaceAll(ext, "Theirs", "From the URL"),
		"seg.toml": "[needs]\nexternal = {\"https://u.example/needs.json\" = \"vendor/u.json\"}\n", "a.rst": `
.. req:: Ours
   :id: REQ_OURS
   :links: OT_REQ_1, REQ_1
`})
	if len(c.Diagnostics) > 0 {
		t.Errorf("with a local copy: %q", diags(c))
	}
	if got := field(c, "REQ_1", "title"); got != "From the URL" {
		t.Errorf("the need from the local copy: %q", got)
	}
}

// needimport: the needs of a local needs.json become needs of the
// document, :id_prefix: before their IDs and the links among them, :tags:
// added, :filter: selecting.
func TestNeedimport(t *testing.T) {
	imp := `{"current_version": "1", "versions": {"1": {"needs": {
  "REQ_A": {"id": "REQ_A", "type": "req", "title": "A", "status": "open", "tags": ["t"], "links": ["REQ_B", "OUTSIDE"], "description": "x"},
  "REQ_B": {"id": "REQ_B", "type": "req", "title": "B", "status": "closed", "tags": [], "links": [], "description": "y"},
  "EPIC_1": {"id": "EPIC_1", "type": "epic", "title": "E", "status": null, "tags": [], "links": [], "description": ""}
}}}}`
	c := run(t, map[string]string{"ubproject.toml": project, "sub/imp.json": imp, "sub/page.rst": `
.. needimport:: imp.json
   :id_prefix: IMP_
   :tags: imported
   :filter: type == "req"

.. req:: Local
   :id: OUTSIDE
`})
	want := map[string]string{
		"IMP_REQ_A links": "IMP_REQ_B,OUTSIDE", "IMP_REQ_A tags": "t, imported", "IMP_REQ_B status": "closed",
	}
	got := map[string]string{}
	for k := range want {
		id, name, _ := strings.Cut(k, " ")
		got[k] = field(c, id, name)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("fields (-want +got):\n%s (diagnostics %q)", d, diags(c))
	}
	n, _ := c.Graph.Lookup("IMP_REQ_A")
	if p := c.Files.Position(n.Pos()); p.Filename != "sub/page.rst" || p.Line != 2 || n.IsExternal() {
		t.Errorf("imported need at %s, external %v", p, n.IsExternal())
	}
	if slices.Contains(ids(c), "IMP_EPIC_1") || len(c.Diagnostics) > 0 {
		t.Errorf("the filter let EPIC_1 in, or diagnostics: %q", diags(c))
	}
}

// suppress_warnings silences the diagnostics of the sphinx-needs warnings
// it names, about needs only; they are kept in Suppressed.
func TestSuppressWarnings(t *testing.T) {
	c := run(t, map[string]string{"docs/conf.py": `
extensions = ["sphinx_needs"]
suppress_warnings = ["needs.link_outgoing", "needs.needextend"]
exclude_patterns = ["drafts/*"]
needs_types = [dict(directive="req", title="Requirement", prefix="R_")]
`, "docs/a.rst": `
.. req:: One
   :id: REQ_1
   :links: REQ_NOPE

.. needextend:: REQ_GONE
   :status: open
`, "docs/drafts/b.rst": `
.. req:: Excluded
   :id: REQ_DRAFT
`, "docs/other.rst": `
.. sreq:: seg's own
   :id: SEG-1
   :refines: SEG-NOPE
`})
	var sup []string
	for _, s := range c.Suppressed {
		sup = append(sup, s.Code.Name+" by "+s.By)
	}
	if d := cmp.Diff([]string{"unresolved-link by needs.link_outgoing", "needextend-no-target by needs.needextend"}, sup); d != "" {
		t.Errorf("suppressed (-want +got):\n%s", d)
	}
	// A need's dead link is silenced as sphinx-needs silences it
	// (TestDeadLinkSuppressed: it still proves nothing); seg's own
	// directives' is not.
	if d := cmp.Diff([]string{`docs/a.rst:4 unresolved-link: unresolved link "REQ_NOPE"`, `docs/a.rst:6 needextend-no-target: needextend: no need has the ID "REQ_GONE"`}, supDiags(c)); d != "" {
		t.Errorf("suppressed diagnostics (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{`docs/other.rst:4 unresolved-link: unresolved link "SEG-NOPE"`}, diags(c)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
	if slices.Contains(ids(c), "REQ_DRAFT") {
		t.Error("exclude_patterns did not exclude docs/drafts/b.rst")
	}
}
