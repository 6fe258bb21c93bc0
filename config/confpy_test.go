package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/parser"
)

// A conf.py as sphinx-needs projects write them: the same project as
// TestUBProjectClassic's ubproject.toml, in the Python forms people use.
const classicConfPy = `# Configuration file for the Sphinx documentation builder.
import os
import sys
sys.path.insert(0, os.path.abspath("."))

project = 'Plat' \
    "form"
release = "3.1"
version = release

extensions = [
    "sphinx.ext.autodoc",
    'sphinx_needs',  # the needs
]

if os.environ.get("FAST"):
    needs_types = []          # indented: not read

needs_id_required = True
needs_id_regex = r"^[A-Z]{2,}_[0-9]+"
_req_color = "#BFD8D2"
needs_types = [
    dict(directive="feat_req", title="Feature requirement", prefix="FEAT_", color=_req_color, style="node"),
    {"directive": "Comp_Req", "title": "Component requirement", "prefix": "COMP_"},
]
needs_types += [dict(directive="tc", title="""Test case""", prefix='TC_')]
needs_extra_options = ["asil"]
needs_extra_options.append({"name": "security", "description": "Security relevant"})
needs_extra_links = [
    {"option": "satisfies", "incoming": "satisfied by", "outgoing": "satisfies", "copy": True},
    {
        "option": "verifies",
        "incoming": "verified by",
        "outgoing": "verifies",
    },
]
needs_extra_links.extend([dict(option="jira", incoming="jira of", outgoing="jira", allow_dead_links=True)])
needs_layouts = make_layouts()   # not read: seg does not need it
html_theme_options = {"logo": f"{project}.png"}
`

func TestConfPyClassic(t *testing.T) {
	c := load(t, map[string]string{
		"docs/conf.py":   classicConfPy,
		"docs/index.rst": "",
		"seg.toml":       classicMapping,
	})
	n := c.Needs
	if n == nil {
		t.Fatal("no project read")
	}
	checkClassic(t, n)
	if n.Types[0].Color != "#BFD8D2" || n.Types[0].Style != "node" {
		t.Errorf("type attributes: %+v", n.Types[0])
	}
	if d := cmp.Diff([]string{"asil", "security"}, n.Extra); d != "" {
		t.Errorf("extra options (-want +got):\n%s", d)
	}
	if !n.IDRequired || n.Project != "Platform" || n.Version != "3.1" || n.DocRoot != "docs" {
		t.Errorf("id_required %v, project %q, version %q, docroot %q", n.IDRequired, n.Project, n.Version, n.DocRoot)
	}
	if !n.IDPattern.MatchString("AB_12x") || n.IDPattern.MatchString("xAB_12") {
		t.Errorf("id pattern %s", n.IDPattern)
	}
	if c.Parser.Directives["comp_req"] != parser.Requirement || c.Parser.Directives["tc"] != parser.Test {
		t.Error("need types are not directives of their kinds")
	}
	if !strings.HasSuffix(c.NeedsFile, "conf.py") || len(c.NeedsRaw) == 0 {
		t.Errorf("NeedsFile %q", c.NeedsFile)
	}
}

// sphinx-needs 8's dict forms, and the root being the source folder.
func TestConfPyNeeds8(t *testing.T) {
	c := load(t, map[string]string{
		"conf.py": `extensions = ["sphinx_needs"]
needs_links = {
    "satisfies": {"incoming": "satisfied by", "outgoing": "satisfies"},
    "tests": {},
}
needs_fields = {"asil": {"description": "ASIL"}, "owner": {}}
`,
	})
	n := c.Needs
	if n == nil {
		t.Fatal("no project read")
	}
	if d := cmp.Diff([]string{"req=need Requirement R_", "spec=need Specification S_", "impl=need Implementation I_", "test=need Test Case T_"}, typesOf(n)); d != "" {
		t.Errorf("default types (-want +got):\n%s", d)
	}
	got := linksOf(n)
	if d := cmp.Diff([]string{"satisfies (satisfies / satisfied by)", "tests ( / )"}, got[2:]); d != "" {
		t.Errorf("links (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"asil", "owner"}, n.Extra); d != "" {
		t.Errorf("fields (-want +got):\n%s", d)
	}
	if n.DocRoot != "" {
		t.Errorf("docroot %q", n.DocRoot)
	}
}

// needs_from_toml hands over to the named ubproject.toml, and its srcdir
// is conf.py's folder.
func TestConfPyFromToml(t *testing.T) {
	c := load(t, map[string]string{
		"docs/source/conf.py": "extensions = ['sphinxcontrib.needs']\nneeds_from_toml = '../ubproject.toml'\nneeds_types = broken(\n",
		"docs/ubproject.toml": "[needs]\ntypes = [{directive = \"story\", title = \"Story\", prefix = \"US_\"}]\n",
	})
	n := c.Needs
	if n == nil {
		t.Fatal("no project read")
	}
	if d := cmp.Diff([]string{"story=need Story US_"}, typesOf(n)); d != "" {
		t.Errorf("types (-want +got):\n%s", d)
	}
	if !strings.HasSuffix(c.NeedsFile, "ubproject.toml") || n.DocRoot != "docs/source" {
		t.Errorf("file %q, docroot %q", c.NeedsFile, n.DocRoot)
	}
}

// A conf.py that does not load sphinx-needs, or one elsewhere, is no
// project; a ubproject.toml at the root wins over a conf.py.
func TestConfPyIgnored(t *testing.T) {
	c := load(t, map[string]string{"docs/conf.py": "extensions = ['sphinx.ext.autodoc']\nneeds_types = [dict(directive='x')]\n"})
	if c.Needs != nil {
		t.Error("a conf.py without sphinx-needs made a project")
	}
	c = load(t, map[string]string{"deep/er/conf.py": "extensions = ['sphinx_needs']\n"})
	if c.Needs != nil {
		t.Error("a conf.py outside the usual places made a project")
	}
	c = load(t, map[string]string{
		"conf.py":        "extensions = ['sphinx_needs']\nneeds_types = [dict(directive='fromconf')]\n",
		"ubproject.toml": "[needs]\ntypes = [{directive = \"fromtoml\"}]\n",
	})
	if d := cmp.Diff([]string{"fromtoml=need  "}, typesOf(c.Needs)); d != "" {
		t.Errorf("types (-want +got):\n%s", d)
	}
	// extensions built in a way seg cannot follow: the text decides.
	c = load(t, map[string]string{"conf.py": "extensions = base_extensions() + ['sphinx_needs']\n"})
	if c.Needs == nil {
		t.Error("a conf.py naming sphinx_needs in its extensions expression made no project")
	}
}

// A setting seg needs but cannot know without running Python is exit 2
// naming the file and line; settings seg does not read may be anything.
func TestConfPyErrors(t *testing.T) {
	cases := []struct {
		conf string
		line int
		msg  string
	}{
		{"extensions = ['sphinx_needs']\n\nneeds_types = load_types()\n", 3, "needs_types: seg reads conf.py without running it, and it calls or indexes load_types"},
		{"extensions = ['sphinx_needs']\nprefix = f'{x}_'\nneeds_types = [dict(directive='a', prefix=prefix)]\n", 3, "prefix is not known (line 2: it holds an f-string)"},
		{"extensions = ['sphinx_needs']\nneeds_extra_options = [o for o in opts]\n", 2, "it is a comprehension"},
		{"extensions = ['sphinx_needs']\nneeds_types = [dict(title='no directive')]\n", 0, "[needs] types: entry 1 has no directive"},
		{"extensions = ['sphinx_needs']\nneeds_id_regex = 5\n", 2, "needs_id_regex is not a string"},
		{"extensions = ['sphinx_needs']\nneeds_types = {'a': 1}\n", 2, "needs_types is not a list"},
		{"extensions = ['sphinx_needs']\nneeds_extra_links += [dict(option='x')]\n", 2, "it is extended before it is set"},
	}
	for _, c := range cases {
		_, err := Load(tree(t, map[string]string{"conf.py": c.conf}), "")
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%q: error %v, want a config error", c.conf, err)
			continue
		}
		if !strings.HasSuffix(ce.File, "conf.py") || c.line != 0 && ce.Line != c.line || !strings.Contains(ce.Msg, c.msg) {
			t.Errorf("%q: got %s:%d: %s\nwant line %d and %q", c.conf, ce.File, ce.Line, ce.Msg, c.line, c.msg)
		}
	}
}
