package lsp_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A link condition (ID[version==1]) that a :version: bump typed in the
// editor makes fail is shown as link-condition-failed at the entry, in
// the other file, with the requirement it leaves unproven; typing the
// version back clears both. The editor has what seg check reports at
// every step.
func TestConditionsInEditor(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"ubproject.toml": `[needs]
id_required = true
id_regex = "^[A-Z0-9_]{3,}$"
types = [
    {directive = "req", title = "Requirement", prefix = "REQ_"},
    {directive = "test", title = "Test", prefix = "TEST_"},
    {directive = "impl", title = "Implementation", prefix = "IMPL_"},
]
extra_options = ["version"]
extra_links = [
    {option = "tests", incoming = "tested by", outgoing = "tests"},
    {option = "implements", incoming = "implemented by", outgoing = "implements"},
]
`,
		"seg.toml":      "[needs.types]\nreq = \"requirement\"\ntest = \"test\"\nimpl = \"implementation\"\n\n[needs.links]\ntests = \"verifies\"\nimplements = \"implements\"\n",
		"docs/reqs.rst": ".. req:: Brake\n   :id: REQ_1\n   :version: 1\n",
		"docs/evidence.rst": `.. test:: Bench
   :id: TEST_1
   :tests: REQ_1[version==1]

.. impl:: Controller
   :id: IMPL_1
   :implements: REQ_1[version==1]

.. outcome:: Run
   :id: RUN_1
   :confirms: TEST_1
   :witnesses: IMPL_1
   :result: passed
`,
	}
	live := writeTree(t, files)
	view := writeTree(t, files)
	c := start(t, live, at, `{"general":{"positionEncodings":["utf-8"]}}`)
	c.open("docs/reqs.rst", files["docs/reqs.rst"])
	versions := 1
	for step, version := range []string{"2", "2a", "1"} {
		text := strings.Replace(files["docs/reqs.rst"], ":version: 1", ":version: "+version, 1)
		b, _ := json.Marshal(text)
		versions++
		c.notify("textDocument/didChange", fmt.Sprintf(`{"textDocument":{"uri":%q,"version":%d},"contentChanges":[{"text":%s}]}`, c.uri("docs/reqs.rst"), versions, b))
		writeFiles(t, view, map[string]string{"docs/reqs.rst": text})
		want := checkFindings(t, view)
		got := serverFindings(t, c, func(file string) []byte {
			if file == "docs/reqs.rst" {
				return []byte(text)
			}
			return []byte(files[file])
		})
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("version %s: seg check (-) and the editor (+) disagree:\n%s", version, d)
		}
		failed := slices.ContainsFunc(got, func(s string) bool {
			return strings.HasPrefix(s, "docs/evidence.rst:3:12 warning link-condition-failed the condition [version==1] of :tests: does not hold for \"REQ_1\": its version is '"+version+"'")
		})
		unproven := slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, `unsatisfied requirement "REQ_1" is unproven`) })
		if stale := version != "1"; failed != stale || unproven != stale {
			t.Errorf("step %d, version %s: link-condition-failed shown %v, REQ_1 unproven %v; want %v:\n%s", step, version, failed, unproven, stale, strings.Join(got, "\n"))
		}
	}
}
