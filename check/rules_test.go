package check_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/check"
)

// hasCode reports whether a check has a diagnostic of the code whose
// message holds text.
func hasCode(c *check.Check, code, text string) bool {
	for _, d := range c.Diagnostics {
		if d.Code.Name == code && strings.Contains(d.Message, text) {
			return true
		}
	}
	return false
}

// The live check (seg lsp) runs the metamodel's rules on every run, over
// the whole graph, as a fresh check does: a finding appears with the edit
// that makes it and goes with the edit that fixes it.
func TestLiveRunsTheRules(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"docs/conf.py":        "extensions = [\"score_metamodel\"]\nscore_metamodel_yaml = \"metamodel.yaml\"\n",
		"docs/metamodel.yaml": "needs_types:\n  feat_req:\n    title: Feature Requirement\n    mandatory_options:\n      status: ^(valid)$\n    optional_links:\n      derived_from: feat_req\n    tags:\n      - requirement\n    parts: 2\nneeds_extra_links:\n  derived_from:\n    incoming: derives\n    outgoing: derived from\n",
		"docs/f/index.rst":    "F\n=\n\n.. feat_req:: One\n   :id: feat_req__one\n   :status: valid\n\n.. feat_req:: Two\n   :id: feat_req__two\n   :status: valid\n   :derived_from: feat_req__one\n",
	})
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	l := tr.Live(check.Options{})
	c1, err := l.Run(liveAt)
	if err != nil {
		t.Fatal(err)
	}
	if hasCode(c1, "schema-option-pattern", "") {
		t.Fatal("a tree that follows its metamodel has a finding")
	}
	l.SetText("docs/f/index.rst", []byte("F\n=\n\n.. feat_req:: One\n   :id: feat_req__one\n   :status: draft\n\n.. feat_req:: Two\n   :id: feat_req__two\n   :status: valid\n   :derived_from: feat_req__one\n"))
	c2, err := l.Run(liveAt)
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(c2, "schema-option-pattern", "feat_req__one.status (draft)") {
		t.Error("the live check does not report the edit's finding")
	}
	writeFiles(t, root, map[string]string{"docs/f/index.rst": "F\n=\n\n.. feat_req:: One\n   :id: feat_req__one\n   :status: draft\n\n.. feat_req:: Two\n   :id: feat_req__two\n   :status: valid\n   :derived_from: feat_req__one\n"})
	if _, want := fresh(t, root); reports(t, c2) != want {
		t.Errorf("the live check is not the fresh one:\n%s", cmp.Diff(want, reports(t, c2)))
	}
	l.SetText("docs/f/index.rst", nil)
	writeFiles(t, root, map[string]string{"docs/f/index.rst": "F\n=\n\n.. feat_req:: One\n   :id: feat_req__one\n   :status: valid\n"})
	l.Changed("docs/f/index.rst")
	c3, err := l.Run(liveAt)
	if err != nil {
		t.Fatal(err)
	}
	if hasCode(c3, "schema-option-pattern", "") {
		t.Error("the finding stays after the fix")
	}
}
