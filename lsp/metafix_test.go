package lsp_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// metaAction is a code action as the tests of the metamodel's fixes read
// it.
type metaAction struct {
	Title       string        `json:"title"`
	Kind        string        `json:"kind"`
	Diagnostics []diagnostic  `json:"diagnostics"`
	Edit        workspaceEdit `json:"edit"`
}

// actionsOn asks for the code actions of the lines lo to hi of file.
func actionsOn(c *client, file string, lo, hi int) []metaAction {
	var acts []metaAction
	c.callRaw("textDocument/codeAction", fmt.Sprintf(`{"textDocument":{"uri":%q},"range":{"start":{"line":%d,"character":0},"end":{"line":%d,"character":0}},"context":{"diagnostics":[]}}`,
		c.uri(file), lo, hi), &acts)
	return acts
}

// change sends the whole text of an open document.
func change(c *client, file string, version int, text string) {
	b, _ := json.Marshal(text)
	c.notify("textDocument/didChange", fmt.Sprintf(`{"textDocument":{"uri":%q,"version":%d},"contentChanges":[{"text":%s}]}`, c.uri(file), version, b))
}

// sameAsCheck compares the editor's findings with a fresh seg check of
// the tree with file as text, and returns them.
func sameAsCheck(t *testing.T, c *client, view string, files map[string]string, file, text, step string) []string {
	t.Helper()
	writeFiles(t, view, map[string]string{file: text})
	want := checkFindings(t, view)
	got := serverFindings(t, c, func(f string) []byte {
		if f == file {
			return []byte(text)
		}
		return []byte(files[f])
	})
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("%s: seg check (-) and the editor (+) disagree:\n%s", step, d)
	}
	return got
}

func hasCode(got []string, code, part string) bool {
	return slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, " "+code+" ") && strings.Contains(s, part) })
}

var scoreTree = map[string]string{
	"docs/conf.py": "extensions = [\"score_metamodel\"]\nscore_metamodel_yaml = \"metamodel.yaml\"\n",
	"docs/metamodel.yaml": `needs_types:
  feat_req:
    title: Feature Requirement
    mandatory_options:
      status: ^(valid|invalid)$
      safety: (QM|ASIL_B)
    tags:
      - requirement
    parts: 2
`,
	"docs/feat/index.rst": "Feat\n====\n\n.. feat_req:: Brakes ✓ 🚗\n   :id: feat_req__brakes\n   :status: valid\n   :safety: QM\n\n   The car stops.\n\n.. feat_req:: Last\n   :id: feat_req__last\n   :status: valid\n   :safety: QM",
}

// A schema-* finding of an S-CORE metamodel appears as the writer types
// (a mandatory option deleted) and goes as the quick fix's skeleton line
// is filled in; at every step the editor has what seg check reports.
func TestSchemaFindingsLive(t *testing.T) {
	t.Parallel()
	files := scoreTree
	const doc = "docs/feat/index.rst"
	live, view := writeTree(t, files), writeTree(t, files)
	c := start(t, live, at, "")
	c.open(doc, files[doc])
	got := sameAsCheck(t, c, view, files, doc, files[doc], "opened")
	if hasCode(got, "schema-missing-option", "") {
		t.Fatalf("setup: %v", got)
	}
	for _, tc := range []struct {
		name, text, option, fixed, filled string
		line                              int // the directive's line (0-based)
	}{
		// The new line follows the last option line, as indented.
		{"an option in the middle",
			strings.Replace(files[doc], "   :status: valid\n", "", 1), "status",
			strings.Replace(files[doc], "   :status: valid\n   :safety: QM\n", "   :safety: QM\n   :status: \n", 1),
			strings.Replace(files[doc], "   :status: valid\n   :safety: QM\n", "   :safety: QM\n   :status: valid\n", 1), 3},
		// The option block ends the file without a line break.
		{"the last line of the file",
			strings.TrimSuffix(files[doc], "\n   :safety: QM"), "safety",
			strings.TrimSuffix(files[doc], "QM"), files[doc], 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text
			change(c, doc, 10+tc.line, text)
			got := sameAsCheck(t, c, view, files, doc, text, "deleted :"+tc.option+":")
			miss := "is missing required attribute: `" + tc.option + "`"
			if !hasCode(got, "schema-missing-option", miss) {
				t.Fatalf("no schema-missing-option for %s:\n%s", tc.option, strings.Join(got, "\n"))
			}
			var fix *metaAction
			acts := actionsOn(c, doc, tc.line, tc.line)
			for i, a := range acts {
				if a.Title == "Add the mandatory option :"+tc.option+":" {
					fix = &acts[i]
				}
			}
			if fix == nil || fix.Kind != "quickfix" || len(fix.Diagnostics) != 1 || !strings.HasSuffix(fix.Diagnostics[0].Message, miss) {
				t.Fatalf("code actions: %+v", acts)
			}
			texts := map[string]string{doc: text}
			apply(t, c, texts, fix.Edit)
			if texts[doc] != tc.fixed {
				t.Fatalf("after the fix:\n%s", texts[doc])
			}
			change(c, doc, 11+tc.line, texts[doc])
			// An empty option is still missing, as S-CORE reads it: the
			// line is for the writer to fill.
			got = sameAsCheck(t, c, view, files, doc, texts[doc], "skeleton")
			if !hasCode(got, "schema-missing-option", miss) {
				t.Errorf("an empty :%s: counts as set:\n%s", tc.option, strings.Join(got, "\n"))
			}
			// The writer types the value where the edit left the cursor.
			e := fix.Edit.Changes[c.uri(doc)][0]
			nl := strings.Count(e.NewText, "\n")
			end := pos{e.Range.Start.Line + nl, len(e.NewText) - strings.LastIndex(e.NewText, "\n") - 1}
			if strings.HasSuffix(e.NewText, "\n") {
				end = pos{e.Range.Start.Line, len(e.NewText) - 1}
			}
			value := map[string]string{"status": "valid", "safety": "QM"}[tc.option]
			c.edit(doc, 12+tc.line, rng{end, end}, value)
			apply(t, c, texts, workspaceEdit{Changes: map[string][]struct {
				Range   rng    `json:"range"`
				NewText string `json:"newText"`
			}{c.uri(doc): {{rng{end, end}, value}}}})
			if texts[doc] != tc.filled {
				t.Fatalf("typed the value:\n%s", texts[doc])
			}
			got = sameAsCheck(t, c, view, files, doc, texts[doc], "filled in")
			if hasCode(got, "schema-missing-option", "") {
				t.Errorf("still missing:\n%s", strings.Join(got, "\n"))
			}
		})
	}
}

// The quick fix of link-condition-failed rewrites the value of the
// condition to the target's value now, as seg review --accept does; the
// range is in the negotiated encoding (UTF-16 here: the old value holds
// a character outside the BMP), and the next analysis has no finding.
func TestConditionFix(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"ubproject.toml": `[needs]
id_required = true
id_regex = "^[A-Z0-9_]{3,}$"
types = [
    {directive = "req", title = "Requirement", prefix = "REQ_"},
    {directive = "test", title = "Test", prefix = "TEST_"},
]
extra_options = ["version"]
extra_links = [
    {option = "tests", incoming = "tested by", outgoing = "tests"},
]
`,
		"seg.toml":      "[needs.types]\nreq = \"requirement\"\ntest = \"test\"\n\n[needs.links]\ntests = \"verifies\"\n",
		"docs/reqs.rst": ".. req:: Brake\n   :id: REQ_1\n   :version: 2\n\n.. req:: Horn\n   :id: REQ_2\n   :version: 7\n",
		"docs/tests.rst": ".. test:: Bench 🚗\n   :id: TEST_1\n   :tests: REQ_1[ version == '🚗1' ], REQ_2[version==7]\n\n" +
			".. test:: Not an equality\n   :id: TEST_2\n   :tests: REQ_1[version=='1' or version=='3']\n",
	}
	const doc = "docs/tests.rst"
	live, view := writeTree(t, files), writeTree(t, files)
	c := start(t, live, at, "")
	c.open(doc, files[doc])
	got := sameAsCheck(t, c, view, files, doc, files[doc], "opened")
	if n := slices.IndexFunc(got, func(s string) bool { return strings.Contains(s, "link-condition-failed") }); n < 0 {
		t.Fatalf("setup: %v", got)
	}
	acts := actionsOn(c, doc, 0, 7)
	var titles []string
	for _, a := range acts {
		titles = append(titles, a.Title)
		if a.Kind != "quickfix" || len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != "link-condition-failed" {
			t.Errorf("%s: kind %q, diagnostics %+v", a.Title, a.Kind, a.Diagnostics)
		}
	}
	// The condition that is not FIELD == VALUE has no fix.
	if d := cmp.Diff([]string{"Update the condition to [version == '2']"}, titles); d != "" {
		t.Fatalf("code actions (-want +got):\n%s", d)
	}
	e := acts[0].Edit.Changes[c.uri(doc)]
	// '🚗1' starts at UTF-16 column 29 and is 5 code units long.
	if len(e) != 1 || e[0].Range != r(2, 29, 2, 34) || e[0].NewText != "'2'" {
		t.Fatalf("the edit: %+v", e)
	}
	texts := map[string]string{doc: files[doc]}
	apply(t, c, texts, acts[0].Edit)
	if want := strings.Replace(files[doc], "'🚗1'", "'2'", 1); texts[doc] != want {
		t.Fatalf("after the fix:\n%s", texts[doc])
	}
	change(c, doc, 2, texts[doc])
	got = sameAsCheck(t, c, view, files, doc, texts[doc], "fixed")
	if slices.ContainsFunc(got, func(s string) bool {
		return strings.HasPrefix(s, doc+":3:") && strings.Contains(s, "link-condition-failed")
	}) {
		t.Errorf("the condition still fails:\n%s", strings.Join(got, "\n"))
	}
	// A client that negotiated UTF-8 gets the same edit in bytes.
	c8 := start(t, writeTree(t, files), at, `{"general":{"positionEncodings":["utf-8"]}}`)
	c8.open(doc, files[doc])
	c8.sync()
	if a := actionsOn(c8, doc, 0, 7); len(a) != 1 || !slices.Equal(rangesOf(a[0].Edit.Changes[c8.uri(doc)]), []rng{r(2, 29, 2, 36)}) {
		t.Errorf("UTF-8 client: %+v", a)
	}
	// The condition seg review --accept cannot rewrite still fails.
	if !slices.ContainsFunc(got, func(s string) bool {
		return strings.HasPrefix(s, doc+":7:") && strings.Contains(s, "link-condition-failed")
	}) {
		t.Errorf("TEST_2's condition no longer shown:\n%s", strings.Join(got, "\n"))
	}
}

func rangesOf(es []struct {
	Range   rng    `json:"range"`
	NewText string `json:"newText"`
}) []rng {
	var out []rng
	for _, e := range es {
		out = append(out, e.Range)
	}
	return out
}
