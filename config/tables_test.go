package config

import "testing"

// The parser is given the tables of the project the configuration read,
// not a copy: config.Needs and Parser.Needs are one project, and a tree
// that is no sphinx-needs project has neither.
func TestParserGetsTheProjectsTables(t *testing.T) {
	c := load(t, map[string]string{"ubproject.toml": "[needs]\ntypes = [{directive = \"story\"}]\n"})
	if c.Needs == nil || c.Parser.Needs != &c.Needs.Tables {
		t.Fatalf("Needs %p, Parser.Needs %p", c.Needs, c.Parser.Needs)
	}
	if _, ok := c.Parser.Directives["story"]; !ok || c.Parser.Needs.Type("story") == nil {
		t.Errorf("story is no need type of the parser's: %+v", c.Parser.Needs.Types)
	}
	plain := load(t, map[string]string{"seg.toml": "allow_empty = true\n"})
	if plain.Needs != nil || plain.Parser.Needs != nil {
		t.Errorf("a tree with no project has one: %v %v", plain.Needs, plain.Parser.Needs)
	}
}
