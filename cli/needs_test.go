package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// examples/needs, a sphinx-needs tree with its test results, is fully
// satisfied, and every format gives the same bytes twice, with and without
// the parse cache.
func TestNeedsExample(t *testing.T) {
	t.Setenv("SEG_CACHE_DIR", t.TempDir())
	const root = "../examples/needs"
	code, out, errs := run("check", "--at", "2026-11-29", root)
	if code != 0 || !strings.Contains(out, "10 requirements: 10 satisfied, 0 failing, 0 unproven; 0 errors, 0 warnings") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, format := range []string{"json", "needs-json", "dot", "mermaid"} {
		_, first, _ := run("graph", "--format", format, "--at", "2026-11-29", root)
		_, cached, _ := run("graph", "--format", format, "--at", "2026-11-29", root)
		_, uncached, _ := run("graph", "--no-cache", "--format", format, "--at", "2026-11-29", root)
		if first != cached || first != uncached {
			t.Errorf("--format %s: runs differ", format)
		}
	}
	_, out, _ = run("graph", "--format", "needs-json", "--at", "2026-11-29", root)
	var doc struct {
		Versions map[string]struct {
			Needs map[string]map[string]any `json:"needs"`
		} `json:"versions"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	n := doc.Versions["2.4"].Needs["TS_CURRENT_SAMPLING"]
	if n["docname"] != "verification/test_specs" || n["type_name"] != "Test specification" {
		t.Errorf("TS_CURRENT_SAMPLING: %v", n)
	}
	if tests := n["tests"].([]any); len(tests) != 1 || tests[0] != "SWR_CURRENT_SAMPLING.rate" {
		t.Errorf("tests %v", tests)
	}
	if v := doc.Versions["2.4"].Needs["SYS_PINCH_DETECT"]["seg_verdict"]; v != "satisfied" {
		t.Errorf("SYS_PINCH_DETECT: %v", v)
	}
}
