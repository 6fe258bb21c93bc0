package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/needs"
)

// [needs.links] in each of its forms (docs/sphinx-needs.md, "Mapping link
// types").
func TestNeedsLinkForms(t *testing.T) {
	root := tree(t, map[string]string{
		"ubproject.toml": "[needs]\nextra_links = [{option = \"satisfied_by\"}, {option = \"traces\"}, {option = \"tests\"}]\n",
		"seg.toml": "[needs.links]\nlinks = \"auto\"\nsatisfied_by = { edge = \"implements\", reverse = true }\n" +
			"traces = [\"implements\", \"refines\"]\ntests = \"verifies\"\n",
	})
	c, err := Load(root, "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, l := range c.Needs.Links {
		got[l.Option] = needs.Mapping(l)
	}
	want := map[string]string{
		"links":        `"auto"`,
		"parent_needs": "",
		"satisfied_by": `{ edge = "implements", reverse = true }`,
		"traces":       `["implements", "refines"]`,
		"tests":        `"verifies"`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if !c.Needs.HasReverse() {
		t.Error("HasReverse is false")
	}
	for _, tc := range []struct{ seg, want string }{
		{"[needs.links]\nlinks = { edge = \"implements\", reverse = \"yes\" }\n", `seg.toml:`},
		{"[needs.links]\nlinks = { reverse = true }\n", `a table needs edge =`},
		{"[needs.links]\nlinks = [\"refines\", \"witnesses\"]\n", `seg.toml:2: [needs.links] links = ["refines", "witnesses"]: a link type maps onto refines, verifies or implements`},
		{"[needs.links]\nlinks = []\n", `an empty list of edges`},
		{"[needs.links]\nlinks = { edge = \"refines\", reversed = true }\n", `unknown key "reversed"`},
	} {
		root := tree(t, map[string]string{"seg.toml": tc.seg})
		_, err := Load(root, "")
		if err == nil {
			t.Errorf("%q: no error", tc.seg)
			continue
		}
		if got := strings.TrimPrefix(err.Error(), root+string(filepath.Separator)); !strings.Contains(got, tc.want) {
			t.Errorf("%q: error %q, want %q in it", tc.seg, got, tc.want)
		}
	}
}
