package cli

import (
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
)

// Every stable code has its own section in docs/codes.md, and the docs
// name no code the program does not know.
func TestEveryCodeIsDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/codes.md")
	if err != nil {
		t.Fatal(err)
	}
	headings := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok && !strings.Contains(h, " ") {
			headings[h] = true
		}
	}
	for _, c := range diag.Codes() {
		if !headings[c.Name] {
			t.Errorf("docs/codes.md has no section for %q", c.Name)
		}
		delete(headings, c.Name)
	}
	for h := range headings {
		t.Errorf("docs/codes.md documents %q, which the code registry does not list", h)
	}
}

// docs/format.md lists exactly the built-in directive names, each kind's
// options and the directives whose content holds no node.
func TestFormatDocListsTheDirectives(t *testing.T) {
	data, err := os.ReadFile("../docs/format.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	section := func(title string) string {
		_, rest, ok := strings.Cut(doc, "\n## "+title+"\n")
		if !ok {
			t.Fatalf("docs/format.md has no section %q", title)
		}
		body, _, _ := strings.Cut(rest, "\n## ")
		return body
	}
	kindNames := map[string]parser.Kind{"requirement": parser.Requirement, "test specification": parser.Test,
		"implementation": parser.Implementation, "test outcome": parser.Outcome, "waiver": parser.Waiver}
	rows := func(body string) [][]string {
		var out [][]string
		for _, line := range strings.Split(body, "\n") {
			if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| kind ") {
				continue
			}
			var cells []string
			for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
				cells = append(cells, strings.TrimSpace(c))
			}
			out = append(out, cells)
		}
		return out
	}
	ticked := regexp.MustCompile("`([^`]+)`")

	documented := map[string]parser.Kind{}
	for _, r := range rows(section("Directive names")) {
		for _, m := range ticked.FindAllStringSubmatch(r[1], -1) {
			documented[m[1]] = kindNames[r[0]]
		}
	}
	if diff := cmp.Diff(parser.DefaultConfig().Directives, documented); diff != "" {
		t.Errorf("docs/format.md, Directive names (-parser +docs):\n%s", diff)
	}

	want, got := map[string]bool{}, map[string]bool{}
	for name, k := range kindNames {
		for o := range parser.OptionsOf(k) {
			want[name+" :"+o+":"] = true
		}
	}
	for _, r := range rows(section("Options")) {
		got[r[0]+" "+strings.Trim(r[1], "`")] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docs/format.md, Options (-parser +docs):\n%s", diff)
	}

	var literal []string
	for _, m := range ticked.FindAllStringSubmatch(strings.Split(section("Directives whose content holds no node"), "`literal_directives`")[0], -1) {
		literal = append(literal, m[1])
	}
	if diff := cmp.Diff(parser.DefaultLiteral, literal); diff != "" {
		t.Errorf("docs/format.md, literal directives (-parser +docs):\n%s", diff)
	}
}

// jsonKeys adds every object key of a JSON document to keys.
func jsonKeys(v any, keys map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			keys[k] = true
			jsonKeys(x, keys)
		}
	case []any:
		for _, x := range v {
			jsonKeys(x, keys)
		}
	}
}

// docSection is the body of the "## title" section of a docs page.
func docSection(t *testing.T, page, title string) string {
	t.Helper()
	data, err := os.ReadFile("../docs/" + page)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "\n## "+title+"\n")
	if !ok {
		t.Fatalf("docs/%s has no section %q", page, title)
	}
	body, _, _ := strings.Cut(rest, "\n## ")
	return body
}

// docs/json.md names every key seg check --format json writes, on trees
// that make every optional key appear.
func TestJSONDocListsEveryKey(t *testing.T) {
	doc := docSection(t, "json.md", "`seg-check/1`")
	keys := map[string]bool{}
	for _, args := range [][]string{
		{"check", "--format", "json", "--at", "2026-11-29", "../examples/broken"},
		{"check", "--format", "json", "--evidence", "--at", "2026-11-29", "../examples/stale"},
		{"check", "--format", "json", "--at", "2026-11-29", "../examples/needs"},
		{"check", "--format", "json", "--at", "2026-11-29", "../report/testdata/sarif/allcodes"},
		{"check", "--format", "json", "--at", "2026-11-29", "--filter", "True", "../examples/needs"},
		{"check", "--format", "json", "--at", "2026-11-29", "testdata/jsonkeys"},
	} {
		_, out, stderr := run(args...)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("seg %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		jsonKeys(v, keys)
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if !strings.Contains(doc, "`"+k+"`") && !strings.Contains(doc, "`"+k+"[]`") {
			t.Errorf("docs/json.md's seg-check/1 section does not name the key %q", k)
		}
	}
}

// docs/matrix.md lists the CSV columns seg writes, in their order.
func TestMatrixDocListsTheCSVColumns(t *testing.T) {
	_, out, _ := run("matrix", "--format", "csv", "--at", "2026-11-29", "../examples/brake")
	header, _, _ := strings.Cut(out, "\n")
	data, err := os.ReadFile("../docs/matrix.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)the columns `([^`]*)`").FindStringSubmatch(string(data))
	if m == nil {
		t.Fatal("docs/matrix.md does not list the CSV columns (\"the columns `...`\")")
	}
	listed := strings.Join(strings.Fields(strings.ReplaceAll(m[1], ",", " ")), ",")
	if listed != strings.TrimSpace(header) {
		t.Errorf("docs/matrix.md lists the CSV columns\n  %s\nseg writes\n  %s", listed, header)
	}
}

// Every flag of every command is documented in docs/, and seg help
// COMMAND shows it.
func TestEveryFlagIsDocumented(t *testing.T) {
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	var all strings.Builder
	for _, p := range append(pages, "../README.md") {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(data)
	}
	docs := all.String()
	for _, name := range slices.Sorted(maps.Keys(commands)) {
		_, fs := newFlags(name)
		_, help, _ := run("help", name)
		fs.VisitAll(func(f *flag.Flag) {
			if !regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(docs) {
				t.Errorf("seg %s --%s is in no page of docs/", name, f.Name)
			}
			if !strings.Contains(help, "--"+f.Name) {
				t.Errorf("seg help %s does not show --%s", name, f.Name)
			}
		})
	}
}

// The docs link only to what a user of the repository has: no link leaves
// it (the project's development notes are not shipped), and every
// relative link names a file that exists.
func TestDocsLinksStayInTheRepository(t *testing.T) {
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	pages = append(pages, "../README.md")
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	root, _ := filepath.Abs("..")
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := regexp.MustCompile("`[^`\n]*`").ReplaceAllString(string(data), "")
		if strings.Contains(string(data), "shared/") {
			t.Errorf("%s names ../shared, which users of the repository do not have", p)
		}
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			abs, _ := filepath.Abs(filepath.Join(filepath.Dir(p), target))
			if rel, err := filepath.Rel(root, abs); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s links to %s, outside the repository", p, target)
				continue
			}
			if _, err := os.Stat(abs); err != nil {
				t.Errorf("%s links to %s, which does not exist", p, target)
			}
		}
	}
}
