package needs

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The string links of sphinx-needs' own documentation, rendered.
func TestStringLinks(t *testing.T) {
	p := NewProject()
	p.StringLinks = []StringLink{
		{Name: "config_link", Regex: regexp.MustCompile(`^(?P<value>\w+)$`),
			LinkURL:  `https://sphinxcontrib-needs.readthedocs.io/en/latest/configuration.html#{{value | replace("_", "-")}}`,
			LinkName: `Sphinx-Needs docs for {{value | replace("_", "-") }}`, Options: []string{"config"}},
		{Name: "github_link", Regex: regexp.MustCompile(`^(?P<value>\w+)$`),
			LinkURL: "https://github.com/useblocks/sphinxcontrib-needs/issues/{{value}}", LinkName: "GitHub #{{value}}", Options: []string{"github"}},
		{Name: "odd", Regex: regexp.MustCompile(`^(?P<value>\w+)$`), LinkURL: "{% if x %}", LinkName: "n", Options: []string{"github"}},
	}
	got := p.StringLinksOf("config", "needs_id_regex, bad value;needs_types")
	want := []StringLinked{
		{"Sphinx-Needs docs for needs-id-regex", "https://sphinxcontrib-needs.readthedocs.io/en/latest/configuration.html#needs-id-regex"},
		{"Sphinx-Needs docs for needs-types", "https://sphinxcontrib-needs.readthedocs.io/en/latest/configuration.html#needs-types"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("config links (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]StringLinked{{"GitHub #404", "https://github.com/useblocks/sphinxcontrib-needs/issues/404"}}, p.StringLinksOf("github", "404")); d != "" {
		t.Errorf("github links (-want +got):\n%s", d)
	}
}
