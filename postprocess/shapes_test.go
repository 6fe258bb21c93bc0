package postprocess_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/needs"
)

// Shapes of sphinx-needs' own test projects (tests/doc_test/*) that its
// tests build with no warning: seg must read them with no error either,
// and make of them what sphinx-needs makes.

// fields reads "ID name" keys with field.
func fields(c *check.Check, keys ...string) map[string]string {
	got := map[string]string{}
	for _, k := range keys {
		id, name, _ := strings.Cut(k, " ")
		got[k] = field(c, id, name)
	}
	return got
}

// importJSON is the shape of sphinx-needs' needs_test_small.json: a legacy
// file ("description", a null status) whose TEST_02 links to TEST_01.
const importJSON = `{"current_version": "0.1.33", "project": "Sphinx-Needs", "versions": {"0.1.33": {"needs": {
  "TEST_01": {"description": "TEST_01", "id": "TEST_01", "links": [], "status": null, "tags": [], "title": "TEST_01 DESCRIPTION", "type": "impl"},
  "TEST_02": {"description": "TEST_02", "id": "TEST_02", "links": ["TEST_01"], "status": "open", "tags": ["test_02", "test"], "title": "TEST_02 DESCRIPTION", "type": "req"},
  "TEST_03": {"description": "AAA", "id": "TEST_03", "links": [], "status": "open", "tags": [], "title": "AAA", "type": "req"}
}}}}`

const importConf = `
extensions = ["sphinx_needs"]
project = "needs test docs"
version = "1.0"
needs_id_regex = "^[A-Za-z0-9_]"
needs_import_keys = {"small": "needs_test_small.json"}
needs_types = [
    dict(directive="req", title="Requirement", prefix="RE_", color="#BFD8D2", style="node"),
    dict(directive="impl", title="Implementation", prefix="IM_", color="#DF744A", style="node"),
]
`

// needimport as sphinx-needs' import_doc and doc_needimport tests use it:
// a needs_import_keys key for the path, :ids: keeping needs by key, and
// :filter: selecting before :id_prefix: renames: only the links to needs
// the import kept get the prefix.
func TestNeedimportAsSphinxNeeds(t *testing.T) {
	c := run(t, map[string]string{"conf.py": importConf, "needs_test_small.json": importJSON, "index.rst": `
Import
======

.. needimport:: small

.. needimport:: needs_test_small.json
   :id_prefix: ids_
   :ids: TEST_01,TEST_02

.. needimport:: needs_test_small.json
   :id_prefix: filter_
   :tags: imported
   :filter: id == 'TEST_02'

.. needimport:: needs_test_small.json
   :id_prefix: small_
   :filter: "test" in tags
`})
	if len(c.Diagnostics) > 0 {
		t.Errorf("diagnostics: %q", diags(c))
	}
	var got []string
	for _, id := range ids(c) {
		got = append(got, id)
	}
	slices.Sort(got)
	want := []string{"TEST_01", "TEST_02", "TEST_03", "filter_TEST_02", "ids_TEST_01", "ids_TEST_02", "small_TEST_02"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("needs (-want +got):\n%s", d)
	}
	wantFields := map[string]string{
		"TEST_02 links": "TEST_01", "ids_TEST_02 links": "ids_TEST_01",
		// TEST_01 was filtered out: the link keeps its ID (and resolves
		// to the unprefixed import's TEST_01).
		"filter_TEST_02 links": "TEST_01", "filter_TEST_02 tags": "test_02, test, imported",
		"small_TEST_02 links": "TEST_01",
	}
	if d := cmp.Diff(wantFields, fields(c, "TEST_02 links", "ids_TEST_02 links", "filter_TEST_02 links", "filter_TEST_02 tags", "small_TEST_02 links")); d != "" {
		t.Errorf("fields (-want +got):\n%s", d)
	}
}

// A link in an imported or external needs.json may carry a condition, as
// sphinx-needs (8.x) writes it and reads it back: the condition is kept
// on the edge, not read as part of the ID.
func TestImportedLinkConditions(t *testing.T) {
	imp := `{"current_version": "1", "versions": {"1": {"needs": {
  "REQ_001": {"id": "REQ_001", "type": "req", "title": "A", "status": "open", "links": []},
  "REQ_002": {"id": "REQ_002", "type": "req", "title": "B", "links": ["REQ_001[status==\"open\"]", "REQ_001.p1[[title == \"A\"]]"]}
}}}}`
	c := run(t, map[string]string{"ubproject.toml": project, "imp.json": imp, "a.rst": `
.. needimport:: imp.json
   :id_prefix: I_
`})
	if len(c.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %q", diags(c))
	}
	g := c.Graph
	n, ok := g.Lookup("I_REQ_002")
	if !ok {
		t.Fatalf("no I_REQ_002 among %q", ids(c))
	}
	var got []string
	for e := range g.Out(n, 0) {
		got = append(got, g.To(e).ID()+"|"+e.Part()+"|"+e.Condition())
	}
	if d := cmp.Diff([]string{`I_REQ_001||status=="open"`, `I_REQ_001|p1|title == "A"`}, got); d != "" {
		t.Errorf("edges (-want +got):\n%s", d)
	}
}

// Variant data in a link list ("<{ var.links }>", sphinx-needs'
// needs_variant_data) is read from conf.py's literals: the reference
// makes the links its value names. One that does not resolve, or variant
// data seg cannot know, make no link: a warning, never evidence.
func TestVariantDataLinks(t *testing.T) {
	conf := `
extensions = ["sphinx_needs"]
needs_types = [dict(directive="req", title="Requirement", prefix="REQ_")]
needs_variant_data = {"platform": "arm", "links": ["REQ_002", "REQ_003"], "one": "REQ_004", "build": {"debug": True}}
`
	rst := `
.. req:: A
   :id: REQ_001
   :links: <{ var.links }>, <{var.one}>

.. req:: B
   :id: REQ_002
   :links: <{ var.missing }>

.. req:: C
   :id: REQ_003

.. req:: D
   :id: REQ_004
`
	c := run(t, map[string]string{"conf.py": conf, "index.rst": rst})
	if got := field(c, "REQ_001", "links"); got != "REQ_002,REQ_003,REQ_004" {
		t.Errorf("REQ_001 links %q (diagnostics %q)", got, diags(c))
	}
	if got := field(c, "REQ_002", "links"); got != "<{ var.missing }>?" {
		t.Errorf("REQ_002 links %q", got)
	}
	want := []string{`index.rst:8 invalid-dynamic-function: <{ var.missing }>: unknown variant data key var.missing`}
	if d := cmp.Diff(want, diags(c)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
	if c.Diagnostics[0].Severity().String() != "warning" {
		t.Errorf("severity %s", c.Diagnostics[0].Severity())
	}

	// A variant data file the build chooses and seg cannot read.
	c = run(t, map[string]string{"conf.py": strings.Replace(conf, "needs_variant_data =", "needs_variant_data_file = \"variants/chosen.json\"\nneeds_variant_data =", 1), "index.rst": rst})
	if got := field(c, "REQ_001", "links"); got != "<{ var.links }>?,<{var.one}>?" {
		t.Errorf("unknown variant data: REQ_001 links %q", got)
	}
	for _, d := range c.Diagnostics {
		if d.Code.Name != "unsupported-dynamic-function" {
			t.Errorf("unknown variant data: %s", d.Code.Name)
		}
	}
	// The file, when it is there, is read, and the inline data merge over it.
	c = run(t, map[string]string{"conf.py": strings.Replace(conf, "needs_variant_data =", "needs_variant_data_file = \"variants/chosen.json\"\nneeds_variant_data =", 1),
		"variants/chosen.json": `{"missing": "REQ_001", "links": ["REQ_001"]}`, "index.rst": rst})
	if got := fields(c, "REQ_001 links", "REQ_002 links"); got["REQ_001 links"] != "REQ_002,REQ_003,REQ_004" || got["REQ_002 links"] != "REQ_001" {
		t.Errorf("variant data file: %v (diagnostics %q)", got, diags(c))
	}
}

// Names from needs_filter_data are read by every filter (needextend,
// needimport, dynamic functions, --filter), over the need's fields, as
// sphinx-needs' filter context has them.
func TestFilterData(t *testing.T) {
	conf := `
extensions = ["sphinx_needs"]
needs_types = [dict(directive="req", title="Requirement", prefix="REQ_")]
needs_extra_options = ["variant"]
needs_filter_data = {"current_variant": "project_x", "sprint": 3}
`
	c := run(t, map[string]string{"conf.py": conf, "index.rst": `
.. req:: A
   :id: REQ_001
   :variant: project_x

.. req:: B
   :id: REQ_002
   :variant: project_y

.. needextend:: variant == current_variant and sprint > 2
   :status: planned
`})
	if len(c.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %q", diags(c))
	}
	if got := fields(c, "REQ_001 status", "REQ_002 status"); got["REQ_001 status"] != "planned" || got["REQ_002 status"] != "<none>" {
		t.Errorf("status %v", got)
	}
	// Computed filter data: a name that is no field may be one of them,
	// so the filter is unsupported, not wrong.
	c = run(t, map[string]string{"conf.py": strings.Replace(conf, `{"current_variant": "project_x", "sprint": 3}`, `get_filter_data()`, 1), "index.rst": `
.. req:: A
   :id: REQ_001

.. needextend:: current_variant == "x"
   :status: planned
`})
	if got := diags(c); len(got) != 1 || !strings.Contains(got[0], "unsupported-filter") {
		t.Errorf("computed filter data: %q", got)
	}
}

// A json_path in a needs_from_toml file in a subfolder is relative to
// that file, as sphinx-needs reads it.
func TestExternalPathFromTOMLFolder(t *testing.T) {
	ext := `{"current_version": "1", "versions": {"1": {"needs": {"EXT_1": {"id": "EXT_1", "type": "req", "title": "Theirs"}}}}}`
	c := run(t, map[string]string{"docs/conf.py": `
extensions = ["sphinx_needs"]
needs_from_toml = "config/ubproject.toml"
`, "docs/config/ubproject.toml": `[needs]
types = [{directive = "req", title = "Requirement", prefix = "R_"}]
external_needs = [{base_url = "https://x.example", json_path = "ext/needs.json"}]
`, "docs/config/ext/needs.json": ext, "docs/a.rst": `
.. req:: Ours
   :id: REQ_1
   :links: EXT_1
`})
	if len(c.Diagnostics) > 0 {
		t.Errorf("diagnostics: %q", diags(c))
	}
	if got := field(c, "REQ_1", "links"); got != "EXT_1" {
		t.Errorf("links %q", got)
	}
}

// A needimport of a file conf.py writes at build time is no pass: seg
// reads the tree as it is, and needs it cannot see must not count. The
// error says that conf.py names the file and what to do.
func TestNeedimportGenerated(t *testing.T) {
	c := run(t, map[string]string{"conf.py": `
extensions = ["sphinx_needs"]
needs_types = [dict(directive="req", title="Requirement", prefix="REQ_")]

def setup(app):
    with open("generated/needs.json", "w") as f:
        f.write(make_needs())
`, "index.rst": `
.. needimport:: /generated/needs.json

.. req:: Local
   :id: REQ_1
   :links: GEN_1
`})
	want := []string{
		`index.rst:2 invalid-needimport: needimport: generated/needs.json is not there; conf.py names it (line 6), so the build may write it`,
		`index.rst:6 unresolved-link: unresolved link "GEN_1"`,
	}
	if d := cmp.Diff(want, diags(c)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
}

// suppress_warnings = ["needs.link_outgoing"] silences a need's dead link
// as sphinx-needs does, but the link makes no edge: a requirement a test
// meant to verify through it stays unproven, and the check fails.
func TestDeadLinkSuppressed(t *testing.T) {
	c := run(t, map[string]string{"conf.py": `
extensions = ["sphinx_needs"]
suppress_warnings = ["needs.link_outgoing"]
needs_types = [dict(directive="req", title="Requirement", prefix="R_"), dict(directive="test", title="Test", prefix="T_")]
needs_extra_links = [dict(option="tests", incoming="tested by", outgoing="tests")]
`, "seg.toml": `[needs.types]
req = "requirement"
test = "test"

[needs.links]
tests = "verifies"
`, "index.rst": `
.. req:: Must hold
   :id: REQ_1

.. test:: Meant for REQ_1
   :id: TEST_1
   :tests: REQ_1X
`})
	if d := cmp.Diff([]string{`index.rst:7 unresolved-link: unresolved link "REQ_1X" (did you mean "REQ_1"?)`}, supDiags(c)); d != "" {
		t.Errorf("suppressed (-want +got):\n%s", d)
	}
	n, _ := c.Graph.Lookup("REQ_1")
	v, ok := c.Result.Verdict(n)
	if !ok || v.Satisfied || v.Status.String() != "unproven" {
		t.Errorf("REQ_1: verdict %+v (%v)", v, ok)
	}
	if n.InDegree() != 0 {
		t.Error("the dead link made an edge")
	}
}

// A link type whose parse_conditions is false (sphinx-needs 8's
// needs_links) reads no condition: "REQ_1[x]" is an ID, and no need has
// it, so the entry is a dead link, not an edge to REQ_1.
func TestParseConditionsFalse(t *testing.T) {
	c := run(t, map[string]string{"ubproject.toml": `[needs]
types = [{directive = "req", title = "Requirement", prefix = "R_"}]

[needs.links.plain]
outgoing = "plain"
parse_conditions = false

[needs.links.cond]
outgoing = "cond"
`, "a.rst": `
.. req:: A
   :id: REQ_1
   :status: open

.. req:: B
   :id: REQ_2
   :plain: REQ_1[status=="open"]
   :cond: REQ_1[status=="open"]
`})
	want := []string{`a.rst:8 unresolved-link: unresolved link "REQ_1[status==\"open\"]"`}
	got := diags(c)
	if len(got) != 1 || !strings.HasPrefix(got[0], want[0]) {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
	if f := field(c, "REQ_2", "cond"); f != "REQ_1" {
		t.Errorf("cond %q", f)
	}
}

// One field model: needextend (post-processing, before the graph) and
// --filter (over the graph) read a need's fields through the same model,
// so every filter selects the same needs in both. (Back links are the
// one difference sphinx-needs has too: empty before needs are linked.)
func TestOneFieldModel(t *testing.T) {
	filters := []string{
		`doctype == ".rst"`,
		`"shall" in content`,
		`content == ""`,
		`type_name == "Requirement" and type_prefix == "R_"`,
		`type_color == "#BFD8D2"`,
		`is_need and not is_part and not is_external`,
		`parent_need == "REQ_1"`,
		`parent_need == ""`,
		`hide == True`,
		`status is None`,
		`status == "open"`,
		`owner == ""`,
		`title.startswith("Child") or False`,
		`"REQ_1" in links`,
		`docname == "sub/page"`,
		`lineno > 10`,
	}
	proj := `[project]
name = "P"

[needs]
types = [
    {directive = "req", title = "Requirement", prefix = "R_", color = "#BFD8D2"},
    {directive = "spec", title = "Specification", prefix = "S_"},
]
extra_options = ["owner", "mark"]
`
	rst := `
.. req:: Top
   :id: REQ_1
   :status: open
   :owner: alice

   The system shall stop.

   .. spec:: Child spec
      :id: SPEC_1
      :links: REQ_1
      :hide:

.. spec:: Empty
   :id: SPEC_2
`
	var ext strings.Builder
	for i, f := range filters {
		ext.WriteString("\n.. needextend:: " + f + "\n   :+mark: hit" + string(rune('a'+i)) + "\n")
	}
	c := run(t, map[string]string{"ubproject.toml": proj, "sub/page.rst": rst, "ext.rst": ext.String()})
	if len(c.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %q", diags(c))
	}
	for i, src := range filters {
		mark := "hit" + string(rune('a'+i))
		var byExtend []string
		for _, id := range []string{"REQ_1", "SPEC_1", "SPEC_2"} {
			if strings.Contains(field(c, id, "mark"), mark) {
				byExtend = append(byExtend, id)
			}
		}
		f, ferr := needs.ParseFilter(src)
		if ferr != nil {
			t.Fatal(ferr)
		}
		fc, note, err := c.Filter(f)
		if err != nil || note != "" {
			t.Fatalf("--filter %s: %v %s", src, err, note)
		}
		var byFilter []string
		for n := range c.Graph.Nodes() {
			if fc.Shows(n) {
				byFilter = append(byFilter, n.ID())
			}
		}
		slices.Sort(byFilter)
		if !slices.Equal(byExtend, byFilter) {
			t.Errorf("%s: needextend selects %q, --filter %q", src, byExtend, byFilter)
		}
		if len(byExtend) == 0 && src != `lineno > 10` {
			t.Errorf("%s selects nothing: the test shows no difference", src)
		}
	}
}

// list2need, as sphinx-needs' doc_list2need test project writes it:
// needs from a nested list, IDs given in parentheses or hashed from the
// title (values from Python's hashlib), content after the delimiter and
// on more lines, nested needs as parent_needs, :links-down: linking a
// level to the one below, and ((key="value")) options.
func TestList2need(t *testing.T) {
	conf := `
extensions = ["sphinx_needs"]
needs_id_regex = "^[A-Za-z0-9_]"
needs_types = [
    {"directive": "story", "title": "User Story", "prefix": "US_"},
    {"directive": "spec", "title": "Specification", "prefix": "SP_"},
    {"directive": "test", "title": "Test Case", "prefix": "TC_"},
]
needs_links = {
    "checks": {"incoming": "is checked by", "outgoing": "checks"},
    "triggers": {"incoming": "is triggered by", "outgoing": "triggers"},
}
`
	c := run(t, map[string]string{"conf.py": conf, "index.rst": `
TEST DOCUMENT LIST2NEED
=======================

.. list2need::
   :types: story, spec, test
   :presentation: nested
   :delimiter: .

   * Need example on level 1
   * (NEED-002) Another Need example on level 1 with a given ID
     * (NEED-003) Sub-Need on level 2
     * Another Sub-Need on level 2. Where this sentence will be used
       as content, the first one as title.
       * Sub-Need on level 3. With some rst-syntax supported for
         the **content** by :ref:` + "`test`" + `
`, "links_down.rst": `
.. list2need::
   :types: story, spec, test
   :links-down: checks, triggers, links
   :presentation: standalone
   :delimiter: .
   :tags: listed

   * (NEED-A)Need example on level 1 ((status="open"))
     * (NEED-B)Need example on level 2
       * (NEED-C)Need example on level 3

.. story:: Uses them
   :id: US_USER
   :links: NEED-003, SP_69FFD, TC_EA5AF, US_F1B63, NEED-C
`})
	if len(c.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %q", diags(c))
	}
	want := map[string]string{
		"US_F1B63 title": "Need example on level 1", "NEED-002 title": "Another Need example on level 1 with a given ID",
		"NEED-003 parent_needs": "NEED-002", "SP_69FFD parent_needs": "NEED-002", "TC_EA5AF parent_needs": "SP_69FFD",
		"SP_69FFD title": "Another Sub-Need on level 2",
		"NEED-A checks":  "NEED-B", "NEED-B triggers": "NEED-C", "NEED-A status": "open", "NEED-C tags": "listed",
		"NEED-B parent_needs": "<none>", "US_USER links": "NEED-003,NEED-C,SP_69FFD,TC_EA5AF,US_F1B63",
	}
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	if d := cmp.Diff(want, fields(c, keys...)); d != "" {
		t.Errorf("fields (-want +got):\n%s", d)
	}
	n, _ := c.Graph.Lookup("SP_69FFD")
	if got := n.Body(); got != "Where this sentence will be used\n   as content, the first one as title." {
		t.Errorf("content %q", got)
	}
	if p := c.Files.Position(n.Pos()); p.Filename != "index.rst" || p.Line != 5 {
		t.Errorf("placed at %s", p)
	}

	// What sphinx-needs refuses is an error, and makes no need.
	c = run(t, map[string]string{"conf.py": conf, "index.rst": `
.. list2need::
   :types: story, epic

   * One
`})
	if got := diags(c); len(got) != 1 || !strings.Contains(got[0], `invalid-list2need: list2need: unknown need type "epic"`) {
		t.Errorf("diagnostics %q", got)
	}
}

// The same settings in a ubproject.toml: [needs] import_keys, filter_data,
// variant_data (merged over variant_data_file, relative to the file).
func TestDataSettingsFromTOML(t *testing.T) {
	c := run(t, map[string]string{"ubproject.toml": `[needs]
types = [{directive = "req", title = "Requirement", prefix = "R_"}]
import_keys = {upstream = "vendor/needs.json"}
filter_data = {wanted = ["REQ_A"], level = 2}
variant_data_file = "variants/v.json"
variant_data = {extra = "REQ_A"}
`, "vendor/needs.json": `{"current_version": "1", "versions": {"1": {"needs": {
  "REQ_A": {"id": "REQ_A", "type": "req", "title": "A"},
  "REQ_B": {"id": "REQ_B", "type": "req", "title": "B"}
}}}}`, "variants/v.json": `{"links": ["REQ_B"]}`, "a.rst": `
.. needimport:: upstream
   :filter: id in wanted and level == 2

.. req:: Local
   :id: REQ_L
   :links: <{ var.extra }>, <{ var.links }>
`})
	got := ids(c)
	slices.Sort(got)
	if d := cmp.Diff([]string{"REQ_A", "REQ_L"}, got); d != "" {
		t.Errorf("needs (-want +got):\n%s (diagnostics %q)", d, diags(c))
	}
	if got := field(c, "REQ_L", "links"); got != "REQ_A,REQ_B?" {
		// REQ_B was not imported: the link is dead (and says so).
		t.Errorf("links %q", got)
	}
	if d := cmp.Diff([]string{`a.rst:7 unresolved-link: unresolved link "REQ_B" (did you mean "REQ_A"?)`}, diags(c)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
}
