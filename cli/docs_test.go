package cli

import (
	"os"
	"regexp"
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
