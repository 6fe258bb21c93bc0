package gen_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seg-trace/seg/bench/gen"
	segcheck "github.com/seg-trace/seg/check"
)

func TestCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tree")
	var stdout, stderr bytes.Buffer
	if code := gen.Command([]string{"-n", "300", "-seed", "4", "-defects", "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "300 requirements") {
		t.Errorf("stdout: %q", stdout.String())
	}
	data, err := os.ReadFile(filepath.Join(out, gen.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m gen.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if !m.Complete || m.Root != "docs" || m.Counts.Requirements != 300 || len(m.Defects) != 3 || m.Params.Seed != 4 {
		t.Errorf("manifest: %+v", m)
	}
	// Not empty now: refused, then allowed with -force.
	if code := gen.Command([]string{"-n", "300", "-out", out}, &stdout, &stderr); code != 1 {
		t.Errorf("non-empty -out: exit %d", code)
	}
	if code := gen.Command([]string{"-q", "-force", "-dense-mb", "0.2", "-files", "7", "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("-force -dense-mb: exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "docs")); !os.IsNotExist(err) {
		t.Errorf("-force left the earlier tree: %v", err)
	}
	ents, _ := os.ReadDir(filepath.Join(out, "dense"))
	if len(ents) != 7 {
		t.Errorf("%d dense files, want 7", len(ents))
	}
}

func TestCommandUsage(t *testing.T) {
	for _, args := range [][]string{
		{},                       // no -out
		{"-out", "x", "extra"},   // stray argument
		{"-out", "x", "-n", "2"}, // too small
		{"-out", "x", "-dense-mb", "1", "-n", "5"}, // -n does not go with -dense-mb
		{"-out", "x", "-files", "5"},               // -files goes with -dense-mb only
		{"-nosuchflag"},
	} {
		var stdout, stderr bytes.Buffer
		if code := gen.Command(args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

// seggen -score writes a tree in S-CORE's shape that follows its
// metamodel: seg finds no rule broken in it, and the -score-baseline tree
// is the same documents mapped by a ubproject.toml.
func TestCommandScore(t *testing.T) {
	mm := filepath.Join(t.TempDir(), "metamodel.yaml")
	if err := os.WriteFile(mm, []byte(`needs_types_base_options:
  mandatory_options:
    version: ^[0-9]+$
needs_types:
  feat_req:
    title: Feature Requirement
    mandatory_options:
      status: ^(valid|invalid)$
      content: ^[\s\S]+$
    mandatory_links:
      satisfied_by: feat
    optional_links:
      derived_from: feat_req
    tags:
      - requirement
  feat:
    title: Feature
    mandatory_options:
      safety: ^(QM|ASIL_B)$
    parts: 2
needs_extra_links:
  satisfied_by:
    incoming: satisfies
    outgoing: satisfied by
  derived_from:
    incoming: derives
    outgoing: derived from
`), 0o644); err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	var out, errOut bytes.Buffer
	if code := gen.Command([]string{"-q", "-n", "120", "-score", mm, "-out", a}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if code := gen.Command([]string{"-q", "-n", "120", "-score", mm, "-score-baseline", "-out", b}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	one, err := os.ReadFile(filepath.Join(a, "docs", "brakes", "part_0000.rst"))
	if err != nil {
		t.Fatal(err)
	}
	two, _ := os.ReadFile(filepath.Join(b, "docs", "brakes", "part_0000.rst"))
	if !bytes.Equal(one, two) || !bytes.Contains(one, []byte("[version==1]")) || !bytes.Contains(one, []byte(".. feat_req:: ")) {
		t.Errorf("the two trees' documents differ, or hold no pinned link:\n%s", one)
	}
	if _, err := os.Stat(filepath.Join(b, "ubproject.toml")); err != nil {
		t.Error("the baseline has no ubproject.toml")
	}
	for _, root := range []string{a, b} {
		tr, err := segcheck.Open(root, "")
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := tr.Run(segcheck.Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range c.Diagnostics {
			t.Errorf("%s: %s [%s]", root, d.Message, d.Code.Name)
		}
		if n := len(c.Result.Verdicts); n == 0 {
			t.Errorf("%s: no requirement", root)
		}
	}
}
