package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/seg-trace/seg/bench/gen"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
)

// ruleCodes are the codes the tests of testdata/*.txtar compare: every
// diagnostic of these codes must be listed in the archive's "want" file,
// and every line there must be a diagnostic.
func ruleCode(c *diag.Code) bool {
	return strings.HasPrefix(c.Name, "schema-") || c.Name == "bad-metamodel" || c.Name == "rules-not-evaluated"
}

// Each archive of testdata is a tree (an S-CORE metamodel, conf.py,
// documents); its "want" file lists the rules' diagnostics, one a line:
// FILE:LINE: SEVERITY CODE: TEXT, TEXT being a part of the message.
func TestRules(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			var want []string
			for _, f := range a.Files {
				if f.Name == "want" {
					for _, l := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
						if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
							want = append(want, l)
						}
					}
					continue
				}
				p := filepath.Join(root, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			checkTree(t, root, want)
		})
	}
}

// checkTree runs seg's check on root and compares the rules' diagnostics
// with want.
func checkTree(t *testing.T, root string, want []string) {
	t.Helper()
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(check.Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range c.Diagnostics {
		if !ruleCode(d.Code) {
			continue
		}
		p := c.Files.Position(d.Span.Start)
		got = append(got, fmt.Sprintf("%s:%d: %s %s: %s", p.Filename, p.Line, d.Severity(), d.Code.Name, d.Message))
	}
	used := make([]bool, len(got))
	for _, w := range want {
		head, text, _ := strings.Cut(w, ": ")
		rest, text2, _ := strings.Cut(text, ": ")
		prefix := head + ": " + rest + ": "
		found := false
		for i, g := range got {
			if !used[i] && strings.HasPrefix(g, prefix) && strings.Contains(g[len(prefix):], text2) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("missing: %s", w)
		}
	}
	for i, g := range got {
		if !used[i] {
			t.Errorf("unexpected: %s", g)
		}
	}
	if t.Failed() {
		t.Logf("got:\n%s", strings.Join(got, "\n"))
	}
}

// realMetamodel is S-CORE's own metamodel.yaml, shared with the project
// as data; the test skips when it is not there.
const realMetamodel = "../../shared/data/score/metamodel.yaml"

// A tree checked against S-CORE's real metamodel: needs that follow it
// get no finding, one that breaks it gets S-CORE's.
func TestRealMetamodelTree(t *testing.T) {
	data, err := os.ReadFile(realMetamodel)
	if err != nil {
		if os.Getenv("SEG_REQUIRE_SCORE_METAMODEL") == "1" {
			t.Fatalf("S-CORE's metamodel.yaml is not there (SEG_REQUIRE_SCORE_METAMODEL=1): %v", err)
		}
		t.Skip("S-CORE's metamodel.yaml is not there")
	}
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("metamodel/metamodel.yaml", string(data))
	write("seg.toml", "[needs]\nmetamodel = \"metamodel/metamodel.yaml\"\n")
	write("docs/conf.py", "project = \"Brakes\"\nextensions = [\"score_sphinx_bundle\"]\n")
	write("docs/brakes/index.rst", `Brakes
======

.. stkh_req:: Stop the car
   :id: stkh_req__brakes__stop
   :reqtype: Functional
   :safety: QM
   :status: valid
   :rationale: Cars stop.
   :security: NO
   :valid_from: v1.0
   :version: 1

.. feat:: Brakes
   :id: feat__brakes
   :security: NO
   :safety: QM
   :status: valid
   :version: 1

.. feat_req:: Stop within 40 m
   :id: feat_req__brakes__stop
   :reqtype: Functional
   :security: NO
   :safety: QM
   :status: valid
   :valid_from: v1.0
   :version: 1
   :satisfied_by: feat__brakes
   :derived_from: stkh_req__brakes__stop[version==1]

   The car stops within 40 m.

.. feat_req:: The car will stop
   :id: feat_req__brakes__bad
   :security: NO
   :safety: ASIL_B
   :status: draft
   :valid_from: v1.0
   :version: 1
   :satisfied_by: stkh_req__brakes__stop

   It really stops.
`)
	checkTree(t, root, []string{
		"docs/brakes/index.rst:34: error schema-missing-option: feat_req__brakes__bad: is missing required attribute: `reqtype`",
		"docs/brakes/index.rst:34: error schema-prohibited-word: feat_req__brakes__bad: contains a weak word: `will` in option: `title`",
		"docs/brakes/index.rst:34: error schema-prohibited-word: feat_req__brakes__bad: contains a weak word: `really` in option: `content`",
		"docs/brakes/index.rst:38: error schema-option-pattern: feat_req__brakes__bad.status (draft): does not follow pattern `^(valid|invalid)$`",
		"docs/brakes/index.rst:41: error schema-link-target: feat_req__brakes__bad: references 'stkh_req__brakes__stop' as 'satisfied_by', but it must reference Feature (feat) (stkh_req__brakes__stop is a Stakeholder Requirement (stkh_req))",
	})
}

// BenchmarkScoreCheck is a cold check of 1,250 needs in S-CORE's shape
// (bench/gen's -score tree of the real metamodel), with its rules and,
// as "baseline", the same documents mapped by a ubproject.toml.
func BenchmarkScoreCheck(b *testing.B) {
	data, err := os.ReadFile(realMetamodel)
	if err != nil {
		b.Skip("S-CORE's metamodel.yaml is not there")
	}
	for _, baseline := range []bool{false, true} {
		root := b.TempDir()
		if _, err := gen.WriteScore(gen.ScoreOptions{N: 1250, Seed: 1, Metamodel: data, Baseline: baseline}, root); err != nil {
			b.Fatal(err)
		}
		name := "rules"
		if baseline {
			name = "baseline"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				tr, err := check.Open(root, "")
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := tr.Run(check.Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
