package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
)

// tree writes files (slash paths) under a new folder and returns it.
func tree(t *testing.T, files map[string]string) string {
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
	return root
}

func load(t *testing.T, files map[string]string) *Config {
	t.Helper()
	c, err := Load(tree(t, files), "")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

func typesOf(n *needs.Project) []string {
	var out []string
	for _, t := range n.Types {
		out = append(out, t.Directive+"="+kindName(t.Kind)+" "+t.Title+" "+t.Prefix)
	}
	return out
}

// kindName is a need type's seg kind, "need" when unmapped.
func kindName(k string) string {
	if k == "" {
		return "need"
	}
	return k
}

func linksOf(n *needs.Project) []string {
	var out []string
	for _, l := range n.Links {
		s := l.Option + " (" + l.Outgoing + " / " + l.Incoming + ")"
		if l.Copy {
			s += " copy"
		}
		if l.AllowDead {
			s += " dead-ok"
		}
		if l.Edge != "" {
			s += " -> " + l.Edge
		}
		out = append(out, s)
	}
	return out
}

// classicMapping maps the classic test project's types and links.
const classicMapping = `
[needs.types]
feat_req = "requirement"
comp_req = "requirement"
tc = "test"

[needs.links]
satisfies = "refines"
verifies = "verifies"
`

// checkClassic checks the types and links of the classic test project,
// however it was written.
func checkClassic(t *testing.T, n *needs.Project) {
	t.Helper()
	wantTypes := []string{"feat_req=requirement Feature requirement FEAT_", "comp_req=requirement Component requirement COMP_", "tc=test Test case TC_"}
	if d := cmp.Diff(wantTypes, typesOf(n)); d != "" {
		t.Errorf("types (-want +got):\n%s", d)
	}
	wantLinks := []string{
		"links (links outgoing / links incoming)",
		"parent_needs (parent needs / child needs)",
		"satisfies (satisfies / satisfied by) copy -> refines",
		"verifies (verifies / verified by) -> verifies",
		"jira (jira / jira of) dead-ok",
	}
	if d := cmp.Diff(wantLinks, linksOf(n)); d != "" {
		t.Errorf("links (-want +got):\n%s", d)
	}
}

func TestNoNeedsProject(t *testing.T) {
	c := load(t, map[string]string{"docs/a.rst": ""})
	if c.Needs != nil {
		t.Error("a tree without ubproject.toml is a sphinx-needs project")
	}
	if c.Parser.Literal["needextend"] {
		t.Error("needextend is literal without a project")
	}
}

// The common form: inline tables in arrays (sphinx-needs up to 7).
func TestUBProjectClassic(t *testing.T) {
	c := load(t, map[string]string{
		"ubproject.toml": `
[project]
name = "Platform"
version = "3.1"

[needs]
id_required = true
id_regex = "^[A-Z]{2,}_[0-9]+"
types = [
    {directive = "feat_req", title = "Feature requirement", prefix = "FEAT_", color = "#BFD8D2", style = "node"},
    {directive = "Comp_Req", title = "Component requirement", prefix = "COMP_"},
    {directive = "tc", title = "Test case", prefix = "TC_"},
]
extra_options = ["asil", {name = "security", description = "Security relevant"}]
extra_links = [
    {option = "satisfies", incoming = "satisfied by", outgoing = "satisfies", copy = true},
    {option = "verifies", incoming = "verified by", outgoing = "verifies"},
    {option = "jira", incoming = "jira of", outgoing = "jira", allow_dead_links = true},
]
layouts = {clean = {grid = "simple"}}
`,
		"seg.toml": classicMapping,
	})
	n := c.Needs
	if n == nil {
		t.Fatal("no project read")
	}
	checkClassic(t, n)
	if d := cmp.Diff([]string{"asil", "security"}, n.Extra); d != "" {
		t.Errorf("extra options (-want +got):\n%s", d)
	}
	for _, o := range []string{"id", "status", "tags", "asil", "security", "satisfies", "jira", "links", "parent_needs", "collapse"} {
		if !n.Takes(o) {
			t.Errorf("a need does not take :%s:", o)
		}
	}
	if !n.IDRequired || n.Project != "Platform" || n.Version != "3.1" || n.DocRoot != "" {
		t.Errorf("id_required %v, project %q, version %q, docroot %q", n.IDRequired, n.Project, n.Version, n.DocRoot)
	}
	// id_regex is matched at the start only, as Python's re.match does.
	if !n.IDPattern.MatchString("AB_12x") || n.IDPattern.MatchString("xAB_12") {
		t.Errorf("id pattern %s", n.IDPattern)
	}
	if c.Parser.Directives["comp_req"] != parser.Requirement || c.Parser.Directives["tc"] != parser.Test {
		t.Error("need types are not directives of their kinds")
	}
	if c.Parser.Directives["test"] != parser.Test || c.Parser.Directives["sreq"] != parser.Requirement {
		t.Error("seg's own directives are gone")
	}
	for _, d := range []string{"needtable", "needservice"} {
		if !c.Parser.Literal[d] {
			t.Errorf("%s holds nodes", d)
		}
	}
	for _, d := range []string{"needextend", "needimport"} {
		if c.Parser.Directives[d] != parser.Instruction {
			t.Errorf("%s is not read as an instruction", d)
		}
	}
	if c.NeedsFile == "" || len(c.NeedsRaw) == 0 {
		t.Error("NeedsFile/NeedsRaw not set")
	}
}

// sphinx-needs 8's tables: [[needs.types]], [needs.links.NAME] and
// [needs.fields.NAME], read in file order.
func TestUBProjectTables(t *testing.T) {
	c := load(t, map[string]string{
		"docs/ubproject.toml": `
"$schema" = "https://ubcode.useblocks.com/ubproject.schema.json"

[project]
srcdir = "source"

[[needs.types]]
directive = "story"
title = "User story"
prefix = "US_"

[[needs.types]]
directive = "spec"
title = "Specification"

[needs.fields.priority]
description = "1 (high) to 5"
schema.type = "integer"

[needs.fields.asil]
schema.type = "string"
schema.enum = ["QM", "A", "B"]

[needs.links.blocks]
outgoing = "blocks"
incoming = "is blocked by"
allow_dead_links = true

[needs.links.links]
outgoing = "relates to"
incoming = "is related to"
copy = false
`,
		"seg.toml": `
[needs]
config = "docs/ubproject.toml"
project = "From seg.toml"
`,
	})
	n := c.Needs
	if d := cmp.Diff([]string{"story=need User story US_", "spec=need Specification "}, typesOf(n)); d != "" {
		t.Errorf("types (-want +got):\n%s", d)
	}
	want := []string{"links (relates to / is related to)", "parent_needs (parent needs / child needs)", "blocks (blocks / is blocked by) dead-ok"}
	if d := cmp.Diff(want, linksOf(n)); d != "" {
		t.Errorf("links (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"priority", "asil"}, n.Extra); d != "" {
		t.Errorf("fields (-want +got):\n%s", d)
	}
	if n.DocRoot != "docs/source" || n.Project != "From seg.toml" || n.IDRequired {
		t.Errorf("docroot %q project %q id_required %v", n.DocRoot, n.Project, n.IDRequired)
	}
	if n.IDPattern.String() != needs.DefaultIDPattern {
		t.Errorf("default id pattern %s", n.IDPattern)
	}
	if _, ok := c.Parser.Directives["req"]; !ok {
		t.Error("seg's req is gone though the project does not define it")
	}
}

// seg.toml's [needs] alone: sphinx-needs' default types and links.
func TestNeedsDefaults(t *testing.T) {
	c := load(t, map[string]string{"seg.toml": "[needs.types]\nreq = \"requirement\"\n"})
	n := c.Needs
	want := []string{"req=requirement Requirement R_", "spec=need Specification S_", "impl=need Implementation I_", "test=need Test Case T_"}
	if d := cmp.Diff(want, typesOf(n)); d != "" {
		t.Errorf("types (-want +got):\n%s", d)
	}
	if c.Parser.Directives["test"] != parser.Need {
		t.Error("test is not a need")
	}
}

func TestNeedsDisabled(t *testing.T) {
	c := load(t, map[string]string{
		"ubproject.toml": "[needs]\ntypes = [{directive = \"story\"}]\n",
		"seg.toml":       "[needs]\nenabled = false\n",
	})
	if c.Needs != nil {
		t.Error("enabled = false still reads the project")
	}
}

// Every bad file is an error naming the file and the line.
func TestNeedsConfigErrors(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string // "FILE:LINE: message" with FILE the base name
	}{
		{"toml syntax", map[string]string{"ubproject.toml": "[needs]\ntypes = [\n  {directive = \"a\"\n]\n"},
			`ubproject.toml:4: `},
		{"wrong type", map[string]string{"ubproject.toml": "[needs]\n\nid_required = \"yes\"\n"},
			`ubproject.toml:3: `},
		{"type without directive", map[string]string{"ubproject.toml": "[needs]\ntypes = [\n  {directive = \"a\"},\n  {title = \"B\"},\n]\n"},
			`ubproject.toml:4: [needs] types: entry 2 has no directive`},
		{"bad directive", map[string]string{"ubproject.toml": "[needs]\ntypes = [\n  {directive = \"a b\"},\n]\n"},
			`ubproject.toml:3: [needs] types: "a b" is not a directive name`},
		{"duplicate directive", map[string]string{"ubproject.toml": "[needs]\ntypes = [\n  {directive = \"req\"},\n  {directive = \"spec\"},\n  {directive = \"Req\"},\n]\n"},
			`ubproject.toml:5: [needs] types: directive "Req" is defined twice`},
		{"bad id_regex", map[string]string{"ubproject.toml": "[needs]\nid_required = true\nid_regex = \"^(?=A)[A-Z]+\"\n"},
			`ubproject.toml:3: [needs] id_regex is not a regular expression seg can use (Go RE2 syntax)`},
		{"link without option", map[string]string{"ubproject.toml": "[needs]\nextra_links = [\n  {incoming = \"x\", outgoing = \"y\"},\n]\n"},
			`ubproject.toml:3: [needs] extra_links: entry 1 has no option`},
		{"link named like an option", map[string]string{"ubproject.toml": "[[needs.extra_links]]\noption = \"status\"\n"},
			`ubproject.toml:2: [needs] extra_links: "status" is one of sphinx-needs' own options`},
		{"bad extra option", map[string]string{"ubproject.toml": "[needs]\nextra_options = [\"asil\", 3]\n"},
			`ubproject.toml:2: [needs] extra_options: entry 2 is neither a name nor a table with a name`},
		{"unknown type in seg.toml", map[string]string{
			"ubproject.toml": "[needs]\ntypes = [{directive = \"sw_req\"}]\n",
			"seg.toml":       "[directives]\nhlr = \"requirement\"\n\n[needs.types]\nsw_rq = \"requirement\"\n"},
			`seg.toml:5: [needs.types] "sw_rq" is not a need type of the project (did you mean "sw_req"?) (its types: sw_req)`},
		{"bad kind in seg.toml", map[string]string{
			"seg.toml": "[needs.types]\nreq = \"requirement\"\ntest = \"outcome\"\n"},
			`seg.toml:3: [needs.types] test = "outcome": a need type maps onto requirement, test or implementation`},
		{"unknown link in seg.toml", map[string]string{
			"seg.toml": "[needs.links]\nlink = \"refines\"\n"},
			`seg.toml:2: [needs.links] "link" is not a link type of the project (did you mean "links"?) (its link types: links, parent_needs)`},
		{"bad edge in seg.toml", map[string]string{
			"seg.toml": "[needs]\n[needs.links]\nlinks = \"confirms\"\n"},
			`seg.toml:3: [needs.links] links = "confirms": a link type maps onto refines, verifies or implements`},
		{"missing config file", map[string]string{"seg.toml": "[needs]\nconfig = \"docs/ubproject.toml\"\n"},
			`seg.toml:2: [needs] config "docs/ubproject.toml": cannot read it`},
		{"directive that is a need type", map[string]string{
			"ubproject.toml": "[needs]\ntypes = [{directive = \"hlr\"}]\n",
			"seg.toml":       "[directives]\nhlr = \"requirement\"\n"},
			`seg.toml:2: directive "hlr" is a need type of the sphinx-needs project; map it in [needs.types] instead`},
		{"directive of kind need", map[string]string{"seg.toml": "[directives]\nhlr = \"need\"\n"},
			`seg.toml:2: directive "hlr" maps to kind "need"`},
		{"unknown key in seg.toml's [needs]", map[string]string{"seg.toml": "[needs]\nconfg = \"x\"\n"},
			`seg.toml:2: unknown key "needs.confg"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := tree(t, c.files)
			_, err := Load(root, "")
			if err == nil {
				t.Fatal("no error")
			}
			var ce *Error
			if !errorsAs(err, &ce) {
				t.Fatalf("%T is not a *config.Error: %v", err, err)
			}
			got := strings.TrimPrefix(err.Error(), root+string(filepath.Separator))
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("error\n  %s\nwant it to start with\n  %s", got, c.want)
			}
		})
	}
}

func errorsAs(err error, target **Error) bool { return errors.As(err, target) }
