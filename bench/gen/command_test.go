package gen_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seg-trace/seg/bench/gen"
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
