package graph

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// partsCfg is the parser's configuration and the project of the tests of
// need parts.
func partsCfg() (*parser.Config, *needs.Project) {
	cfg := parser.DefaultConfig()
	n := needs.NewProject()
	n.AddType(needs.NeedType{Directive: "spec"})
	n.AddLink(needs.LinkType{Option: "loose", AllowDead: true})
	cfg.UseNeeds(&n.Tables)
	return cfg, n
}

func parseAll(cfg *parser.Config, text map[string]string, names ...string) (*source.FileSet, []*parser.File) {
	fs := source.NewFileSet()
	var files []*parser.File
	for _, name := range names {
		src := text[name]
		files = append(files, parser.ParseFile(fs.Add(name, len(src), source.Docutils), []byte(src), cfg))
	}
	return fs, files
}

// A link to a part of a need resolves when the need's content defines the
// part (":np:`(id)text`", or the hash of the text), and is unresolved-link
// otherwise, as sphinx-needs reports it (needs.link_outgoing); a link type
// that allows dead links keeps it open without a finding, and a part of a
// nested need is not its parent's.
func TestNeedPartLinks(t *testing.T) {
	src := `.. spec:: Commands
   :id: SP_1

   * :need_part:` + "`(exit)exit()`" + `
   * :np:` + "`start()`" + `

   .. spec:: Nested
      :id: SP_2

      :np:` + "`(inner)x`" + `

.. spec:: Links
   :id: SP_3
   :links: SP_1.exit, SP_1.` + parser.NeedParts(":np:`start()`")[0] + `, SP_1.invalid, SP_1.inner, SP_2.inner
   :loose: SP_1.gone
`
	cfg, np := partsCfg()
	fs, files := parseAll(cfg, map[string]string{"a.rst": src}, "a.rst")
	if len(files[0].Diagnostics) > 0 {
		t.Fatal(files[0].Diagnostics)
	}
	g, ds := Build(fs, files, nil, np)
	var got []string
	for _, d := range ds {
		got = append(got, d.Code.Name+": "+d.Message)
	}
	want := []string{
		`unresolved-link: unresolved link "SP_1.invalid": need "SP_1" has no part "invalid"`,
		`unresolved-link: unresolved link "SP_1.inner": need "SP_1" has no part "inner"`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
	var open []string
	for o := range g.OpenLinks() {
		open = append(open, o.Address()+" "+o.Reason().String())
	}
	if d := cmp.Diff([]string{"SP_1.invalid unresolved", "SP_1.inner unresolved", "SP_1.gone dangling"}, open); d != "" {
		t.Errorf("open links (-want +got):\n%s", d)
	}
}

// An edit that adds or removes a part its need had relinks the links to
// it: the patched graph is the one a fresh build makes.
func TestPatchNeedParts(t *testing.T) {
	text := map[string]string{
		"a.rst": ".. spec:: A\n   :id: SP_1\n\n   :np:`(one)first`\n",
		"b.rst": ".. spec:: B\n   :id: SP_2\n   :links: SP_1.one, SP_1.two\n",
	}
	cfg, np := partsCfg()
	var m Memo
	for step, edit := range []func(){
		func() {},
		func() { text["a.rst"] += "   :np:`(two)second`\n" },
		func() { text["a.rst"] = strings.Replace(text["a.rst"], "(one)", "(uno)", 1) },
	} {
		edit()
		fs, files := parseAll(cfg, text, "a.rst", "b.rst")
		if step > 0 {
			// Only a.rst changed: hand the memo b.rst's last parse.
			files[1] = m.last.files[1]
		}
		got, gotDiags := BuildMemo(fs, files, nil, np, nil, &m)
		want, wantDiags := Build(fs, files, nil, np)
		if !m.Delta().Valid() && step > 0 {
			t.Fatalf("step %d: not patched", step)
		}
		if !sameGraph(want, got) {
			t.Fatalf("step %d: the patch differs (-build +patch):\n%s", step, cmp.Diff(want, got, graphOpts))
		}
		if len(wantDiags) != len(gotDiags) {
			t.Fatalf("step %d: findings %v, want %v", step, gotDiags, wantDiags)
		}
		for i := range wantDiags {
			if wantDiags[i].Message != gotDiags[i].Message {
				t.Fatalf("step %d: finding %q, want %q", step, gotDiags[i].Message, wantDiags[i].Message)
			}
		}
	}
}
