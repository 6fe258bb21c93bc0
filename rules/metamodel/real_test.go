package metamodel

import (
	"os"
	"testing"
)

// realMetamodel is S-CORE's own metamodel.yaml, shared with the project
// as data (docs/score.md); the tests that read it skip when it is absent.
const realMetamodel = "../../../shared/data/score/metamodel.yaml"

func TestRealMetamodel(t *testing.T) {
	if _, err := os.Stat(realMetamodel); err != nil {
		if os.Getenv("SEG_REQUIRE_SCORE_METAMODEL") == "1" {
			t.Fatalf("S-CORE's metamodel.yaml is not there (SEG_REQUIRE_SCORE_METAMODEL=1): %v", err)
		}
		t.Skip("S-CORE's metamodel.yaml is not there")
	}
	m, err := ReadFile(realMetamodel)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Problems) > 0 {
		t.Fatalf("problems: %+v", m.Problems)
	}
	if len(m.Types) != 50 || len(m.Links) != 26 || len(m.Graph) != 5 || len(m.Prohibited) != 2 {
		t.Fatalf("read %d types, %d links, %d graph checks, %d word checks; want 50, 26, 5, 2", len(m.Types), len(m.Links), len(m.Graph), len(m.Prohibited))
	}
	fr := m.Type("feat_req")
	if fr == nil || !fr.HasTag("requirement") || fr.Parts != 3 || fr.Option("version") == nil || fr.Option("source_code_link") == nil {
		t.Fatalf("feat_req: %+v", fr)
	}
	if l := fr.Link("satisfied_by"); l == nil || len(l.Targets) != 1 || l.Targets[0] != "feat" {
		t.Fatalf("feat_req satisfied_by: %+v", l)
	}
	if wf := m.Type("workflow"); wf.Prefix != "wf__" || !wf.IDPattern().Match("wf__x") || wf.IDPattern().Match("workflow__x") {
		t.Fatalf("workflow's ID pattern: %s", wf.IDPattern().Source)
	}
}
