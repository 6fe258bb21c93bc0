package codetags

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// brief writes tags as "line:col syntax ids" ("id=ID" first for a
// one-line need; "!problem" for a malformed tag), one a line.
func brief(tags []Tag) string {
	var b strings.Builder
	for _, t := range tags {
		fmt.Fprintf(&b, "%d:%d %s", t.Line, t.Col, t.Syntax)
		if t.NeedID != "" {
			fmt.Fprintf(&b, " id=%s title=%q type=%s", t.NeedID, t.Title, t.Type)
		}
		for _, r := range t.Refs {
			fmt.Fprintf(&b, " %s@%d:%d", r.ID, r.Line, r.Col)
		}
		if t.Problem != "" {
			fmt.Fprintf(&b, " !%s", t.Problem)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestScanSyntaxes(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"score hash", "# req-Id: REQ_1\n", "1:1 score REQ_1@1:11\n"},
		{"score slashes", "x = 1 // req-traceability: A, B C\n", "1:7 score A@1:28 B@1:31 C@1:33\n"},
		// S-CORE takes every word after the tag for an ID: trailing
		// text is IDs too (they do not resolve, as in S-CORE's build).
		{"score trailing text", "// req-Id: REQ_1 see above\n", "1:1 score REQ_1@1:12 see@1:18 above@1:22\n"},
		// Only "# " and "// " lead S-CORE's tags.
		{"score other leader", "-- req-Id: REQ_1\n/* req-Id: REQ_2 */\n", ""},
		{"score in a string", `s = "# req-Id: REQ_9"` + "\n", "1:6 score REQ_9\"@1:16\n"},
		{"score empty", "# req-Id:\n", "1:1 score !the tag names no ID\n"},
		{"score CRLF", "a\r\n# req-Id: REQ_1\r\nb\r\n", "2:1 score REQ_1@2:11\n"},
		{"score BOM", "\xef\xbb\xbf# req-Id: REQ_1\n", "1:1 score REQ_1@1:11\n"},
		{"score twice on a line", "# req-Id: A # req-Id: B\n", "1:1 score A@1:11 #@1:13 req-Id:@1:15 B@1:23\n"},
		{"need-ids", "// @need-ids: REQ_1, REQ_2\n", "1:4 codelinks REQ_1@1:15 REQ_2@1:22\n"},
		{"need-ids block comment", "/* @need-ids: REQ_1 */\n", "1:4 codelinks REQ_1@1:15\n"},
		{"one-line need", "// @ Brake control, IMPL_1, impl, [REQ_1, REQ_2]\n",
			"1:4 codelinks id=IMPL_1 title=\"Brake control\" type=impl REQ_1@1:36 REQ_2@1:43\n"},
		{"one-line need escapes", `// @ title\, 3, IMPL_3 , impl, [\[SPEC\,_1\]]` + "\n",
			"1:4 codelinks id=IMPL_3 title=\"title, 3\" type=impl [SPEC,_1]@1:33\n"},
		{"one-line need without links is none", "// @ Brake, IMPL_1\n", ""},
		{"decorator is no need", "    @property\n    @app.route(\"/x\", methods)\n", ""},
		{"javadoc is no need", " * @param x, y the values\n", ""},
		{"oft", "// [impl->dsn~brake-control~1]\n", "1:4 oft dsn~brake-control~1@1:11\n"},
		{"oft full", "# [ impl~brake~2 -> dsn~brake.ctl~1 >> utest, itest ]\n", "1:3 oft dsn~brake.ctl~1@1:21\n"},
		{"oft not a tag", "p->next = q; a[i->j] = 1;\n", ""},
		{"lobster", "// lobster-trace: req.brake, req.stop\n", "1:4 lobster req.brake@1:19 req.stop@1:30\n"},
		{"lobster block", "/* lobster-trace: req.brake */\n", "1:4 lobster req.brake@1:19\n"},
	}
	s := DefaultSettings()
	for _, c := range cases {
		if got := brief(s.Scan("f.c", []byte(c.src))); got != c.want {
			t.Errorf("%s: %q\n got %s\nwant %s", c.name, c.src, got, c.want)
		}
	}
}

// TestScanLanguages finds the tags of each syntax in the comments of ten
// languages.
func TestScanLanguages(t *testing.T) {
	langs := []struct{ name, open, close string }{
		{"C", "/*", "*/"}, {"C++", "//", ""}, {"Python", "#", ""}, {"Go", "//", ""},
		{"Rust", "///", ""}, {"Java", " *", ""}, {"Shell", "#", ""}, {"SQL", "--", ""},
		{"Lisp", ";;", ""}, {"HTML", "<!--", "-->"}, {"Erlang", "%", ""}, {"Fortran", "!", ""},
	}
	s := DefaultSettings()
	for _, l := range langs {
		// A one-line need runs to the end of its line: a comment's closer
		// after it spoils it, for sphinx-codelinks as for seg.
		src := fmt.Sprintf("code();\n%s @need-ids: REQ_A, REQ_B %s\n%s lobster-trace: req.a %s\n%s [impl->dsn~a~1] %s\n%s @ T, IMPL_%d, impl, [REQ_C]\n",
			l.open, l.close, l.open, l.close, l.open, l.close, l.open, len(l.open))
		tags := s.Scan("x", []byte(src))
		var got []string
		for _, tg := range tags {
			for _, r := range tg.Refs {
				got = append(got, tg.Syntax+":"+r.ID)
			}
		}
		want := []string{"codelinks:REQ_A", "codelinks:REQ_B", "lobster:req.a", "oft:dsn~a~1", "codelinks:REQ_C"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v\n%s", l.name, got, want, src)
		}
		// The S-CORE forms count after "#" and "//" only.
		sc := s.Scan("x", []byte(l.open+" req-Id: REQ_S\n"))
		if wantScore := strings.HasSuffix(l.open, "#") || strings.HasPrefix(l.open, "//"); (len(sc) == 1) != wantScore {
			t.Errorf("%s: S-CORE tag found %d times", l.name, len(sc))
		}
	}
}

func TestScanLongLine(t *testing.T) {
	line := strings.Repeat("x", 10000) + " // req-Id: REQ_LONG " + strings.Repeat("y->z ", 2000)
	tags := DefaultSettings().Scan("x", []byte("a\n"+line+"\n"))
	if len(tags) != 1 || tags[0].Line != 2 || tags[0].Col != 10002 || tags[0].Refs[0].ID != "REQ_LONG" {
		t.Fatalf("got %s", brief(tags))
	}
}

func TestScanCustom(t *testing.T) {
	s := &Settings{Syntaxes: map[string]bool{}, Default: DefaultAnalyse()}
	s.Custom = []*regexp.Regexp{regexp.MustCompile(`Implements\(([^)]*)\)`)}
	got := brief(s.Scan("x", []byte("a\n  // Implements(REQ_1, REQ_2) rest\n// Implements()\n")))
	want := "2:6 custom REQ_1@2:17 REQ_2@2:24\n3:4 custom !the tag names no ID\n"
	if got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	if _, err := CompileCustom(`a(b)(c)`); err == nil {
		t.Error("two capture groups accepted")
	}
	if _, err := CompileCustom(`abc`); err == nil {
		t.Error("no capture group accepted")
	}
}

func TestScanSyntaxChoice(t *testing.T) {
	src := []byte("# req-Id: A\n// @need-ids: B\n// [impl->dsn~c~1]\n// lobster-trace: d\n")
	for _, syn := range Syntaxes {
		s := &Settings{Syntaxes: map[string]bool{syn: true}, Default: DefaultAnalyse()}
		tags := s.Scan("x", src)
		if len(tags) != 1 || tags[0].Syntax != syn {
			t.Errorf("%s alone: got %s", syn, brief(tags))
		}
	}
}

func TestCodelinksSettings(t *testing.T) {
	toml := `
[codelinks.projects.src.source_discover]
src_dir = "../src"
exclude = ["gen/**"]

[codelinks.projects.src.analyse]
get_need_id_refs = true

[codelinks.projects.src.analyse.need_id_refs]
markers = ["@implements:"]

[codelinks.projects.src.analyse.oneline_comment_style]
start_sequence = "[["
end_sequence = "]]"
field_split_char = ";"
needs_fields = [
  { name = "id" },
  { name = "title" },
  { name = "links", type = "list[str]", default = [] },
  { name = "type", default = "impl" },
]
`
	ps, err := ReadCodelinks("docs", []byte(toml))
	if err != nil || len(ps) != 1 {
		t.Fatal(ps, err)
	}
	if ps[0].Dir != "src" || !slices.Equal(ps[0].Exclude, []string{"gen/**"}) {
		t.Errorf("project %+v", ps[0])
	}
	s := DefaultSettings()
	s.Codelinks = ps
	src := []byte("// @implements: REQ_1\n// @need-ids: REQ_X\nint x; // [[IMPL_7; Seven\\; fields; [REQ_2, REQ_3]]]\n// [[IMPL_8]]\n")
	got := brief(s.Scan("src/a.c", src))
	want := "1:4 codelinks REQ_1@1:17\n" +
		"3:11 codelinks id=IMPL_7 title=\"Seven; fields\" type=impl REQ_2@3:38 REQ_3@3:45\n" +
		"4:4 codelinks !a one-line need with 1 fields; the style needs at least 2\n"
	if got != want {
		t.Errorf("in the project:\n got %s\nwant %s", got, want)
	}
	// Outside the project's folder the defaults hold.
	if got := brief(s.Scan("lib/a.c", src)); got != "2:4 codelinks REQ_X@2:15\n" {
		t.Errorf("outside the project: got %s", got)
	}
}

func TestEntryRoundTrip(t *testing.T) {
	s := DefaultSettings()
	sc := Scanned{Path: "a.c", Sum: "abc", Tags: s.Scan("a.c", []byte("// @ T, I_1, impl, [R_1]\n# req-Id: X Y\n# req-Id:\n"))}
	got, ok := decodeEntry("a.c", encodeEntry(sc))
	if !ok || brief(got.Tags) != brief(sc.Tags) || got.Sum != "abc" {
		t.Fatalf("round trip: %v %s", ok, brief(got.Tags))
	}
	if _, ok := decodeEntry("a.c", encodeEntry(sc)[:5]); ok {
		t.Error("a cut entry decoded")
	}
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestListing(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		".gitignore":         "build/\n*.gen.c\n!keep.gen.c\n/top.c\n",
		"top.c":              "",
		"src/a.c":            "",
		"src/top.c":          "",
		"src/x.gen.c":        "",
		"src/keep.gen.c":     "",
		"src/.hidden.c":      "",
		"src/sub/.gitignore": "*.h\n",
		"src/sub/b.c":        "",
		"src/sub/b.h":        "",
		"build/out.c":        "",
		"docs/index.rst":     "",
		"_private/p.c":       "",
		"bazel-out/o.c":      "",
		"lib/l.pyc":          "",
	})
	if err := os.Symlink("loop", filepath.Join(root, "src", "loop")); err != nil {
		t.Skip("no symbolic links here")
	}
	if err := os.Symlink("..", filepath.Join(root, "src", "sub", "up")); err != nil {
		t.Fatal(err)
	}
	l := &Listing{Root: root, Patterns: []string{"**"}, Skip: func(rel string, dir bool) bool { return rel == "docs" }}
	got := l.List()
	want := []string{"_private/p.c", "bazel-out/o.c", "lib/l.pyc", "src/a.c", "src/keep.gen.c", "src/sub/b.c", "src/top.c"}
	if !slices.Equal(got.Files, want) {
		t.Errorf("files %v, want %v", got.Files, want)
	}
	if len(got.Unreadable) != 1 || got.Unreadable[0].Path != "src/loop" {
		t.Errorf("unreadable %v", got.Unreadable)
	}
	l.SCORE = true
	if got := l.List(); !slices.Equal(got.Files, []string{"src/a.c", "src/keep.gen.c", "src/sub/b.c", "src/top.c"}) {
		t.Errorf("S-CORE's files %v", got.Files)
	}
	l = &Listing{Root: root, Patterns: []string{"src/sub", "src/*.c", "nothing/**"}}
	got = l.List()
	if !slices.Equal(got.Files, []string{"src/a.c", "src/keep.gen.c", "src/sub/b.c", "src/top.c"}) || !slices.Equal(got.Unmatched, []string{"nothing/**"}) {
		t.Errorf("patterns: %v unmatched %v", got.Files, got.Unmatched)
	}
}

func TestScanSkipsBinary(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.c": "// req-Id: REQ_1\n", "b.bin": "\x00\x01// req-Id: REQ_2\n"})
	res := Scan(Input{Root: root, Listing: Listing{Root: root, Patterns: []string{"**"}}, Settings: DefaultSettings()})
	if len(res.Files) != 1 || res.Files[0].Path != "a.c" || res.Read != 2 {
		t.Fatalf("%+v", res)
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"# req-Id: REQ_1\n", "// @ T, I, impl, [R]\n", "[impl->dsn~a~1]", "// lobster-trace: a,b */",
		"// @ title\\, 3, IMPL_3 , impl, [\\[SPEC\\,_1\\]]", "\xef\xbb\xbf\r\n# req-Id:\r\n", "a->b[c->d~e~1>>x]",
	} {
		f.Add([]byte(s))
	}
	s := DefaultSettings()
	s.Custom = []*regexp.Regexp{regexp.MustCompile(`impl\(([^)]*)\)`)}
	f.Fuzz(func(t *testing.T, data []byte) {
		tags := s.Scan("f", data)
		lines := strings.Split(strings.TrimPrefix(string(data), "\xef\xbb\xbf"), "\n")
		for _, tg := range tags {
			if tg.Line < 1 || tg.Line > len(lines) || tg.Col < 1 || tg.Col > len(lines[tg.Line-1])+1 {
				t.Fatalf("tag at %d:%d outside the text", tg.Line, tg.Col)
			}
			for _, r := range tg.Refs {
				if r.ID == "" || r.Line < 1 || r.Line > len(lines) || r.Col < 1 {
					t.Fatalf("ref %+v", r)
				}
			}
		}
		d, ok := decodeEntry("f", encodeEntry(Scanned{Path: "f", Tags: tags}))
		if !ok || brief(d.Tags) != brief(tags) {
			t.Fatal("entry round trip")
		}
	})
}
