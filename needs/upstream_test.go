package needs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/report"
)

// upstreamTrees are copies of public sphinx-needs trees (testdata/upstream,
// each with its licence): sphinx-needs' own documentation and its demo.
var upstreamTrees = []string{"sphinx-needs-docs", "sphinx-needs-demo/basic_example"}

// TestUpstreamAgainstOracle compares, field by field, the needs.json seg
// writes for each upstream tree with what sphinx-needs' semantics give
// (expected.json, written by testdata/upstream/oracle.py: docutils finds
// the needs, Python applies sphinx-needs' rules; see its comment). Every
// need and every field the oracle writes must agree: IDs (the generated
// ones too), type, title, status, tags, each link type and its back
// links, parent_needs, the extra options. SEG_REQUIRE_DOCUTILS=1 runs the
// oracle again and checks that expected.json is what it says now.
func TestUpstreamAgainstOracle(t *testing.T) {
	total, agree := 0, 0
	for _, name := range upstreamTrees {
		root := filepath.Join("testdata", "upstream", filepath.FromSlash(name))
		want := readExpected(t, root)
		got := segNeeds(t, root)
		var ids []string
		for id := range want {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		treeTotal, treeAgree := 0, 0
		for _, id := range ids {
			g, ok := got[id]
			fields := want[id]
			var names []string
			for f := range fields {
				names = append(names, f)
			}
			sort.Strings(names)
			for _, f := range names {
				treeTotal++
				if !ok {
					t.Errorf("%s: seg has no need %s", name, id)
					continue
				}
				if w, gv := fields[f], g[f]; !reflect.DeepEqual(norm(w), norm(gv)) {
					t.Errorf("%s: %s.%s: sphinx-needs %s, seg %s", name, id, f, show(w), show(gv))
					continue
				}
				treeAgree++
			}
		}
		for id := range got {
			if _, ok := want[id]; !ok {
				t.Errorf("%s: seg has need %s, sphinx-needs none", name, id)
			}
		}
		t.Logf("%s: %d needs, %d of %d fields agree", name, len(want), treeAgree, treeTotal)
		total += treeTotal
		agree += treeAgree
	}
	t.Logf("all: %d of %d fields agree", agree, total)
}

// readExpected reads a tree's expected.json, and with SEG_REQUIRE_DOCUTILS
// set checks that the oracle still writes it.
func readExpected(t *testing.T, root string) map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SEG_REQUIRE_DOCUTILS") != "" {
		out, err := exec.Command("python3", filepath.Join("testdata", "upstream", "oracle.py"), root).Output()
		if err != nil {
			t.Fatalf("oracle.py %s: %v", root, err)
		}
		if !bytes.Equal(out, data) {
			t.Errorf("%s/expected.json is not what oracle.py writes now", root)
		}
	}
	var doc struct {
		Needs map[string]map[string]any `json:"needs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Needs
}

// segNeeds are the needs of seg graph --format needs-json on the tree.
func segNeeds(t *testing.T, root string) map[string]map[string]any {
	t.Helper()
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(check.Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), AllowEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.WriteNeedsJSON(&b, c); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		CurrentVersion string `json:"current_version"`
		Versions       map[string]struct {
			Needs map[string]map[string]any `json:"needs"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Versions[doc.CurrentVersion].Needs
}

// norm makes an empty list and a missing one alike.
func norm(v any) any {
	if l, ok := v.([]any); ok && len(l) == 0 {
		return nil
	}
	return v
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return fmt.Sprint(string(b))
}
