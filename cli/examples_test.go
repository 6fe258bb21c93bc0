package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// examples/stale is what the README promises: a requirement reworded and
// a source file changed after review leave three stale links, the
// requirement unproven (never satisfied), and accepting the review in a
// copy of the tree makes it satisfied again without touching the example.
func TestStaleExample(t *testing.T) {
	const at = "2026-11-29"
	code, out, stderr := run("check", "--at", at, "--format", "json", "--no-cache", "../examples/stale")
	if code != 1 {
		t.Fatalf("seg check examples/stale: exit %d, want 1\n%s", code, stderr)
	}
	rep := decodeCheck(t, out)
	var stale []string
	for _, d := range rep.Diagnostics {
		if d.Code == "stale-link" {
			stale = append(stale, d.Message)
		}
	}
	if len(stale) != 3 {
		t.Fatalf("stale-link diagnostics: %d, want 3:\n%s", len(stale), strings.Join(stale, "\n"))
	}
	if diff := cmp.Diff(map[string]string{"DL-SREQ-1": "unproven"}, rep.statuses()); diff != "" {
		t.Fatalf("statuses (-want +got):\n%s", diff)
	}

	dir := filepath.Join(t.TempDir(), "stale")
	copyTree(t, "../examples/stale", dir)
	if code, _, stderr := run("review", "--accept-all", dir); code != 0 {
		t.Fatalf("seg review --accept-all: exit %d\n%s", code, stderr)
	}
	code, out, stderr = run("check", "--at", at, "--format", "json", "--no-cache", dir)
	if code != 0 {
		t.Fatalf("seg check after review: exit %d\n%s%s", code, out, stderr)
	}
	if diff := cmp.Diff(map[string]string{"DL-SREQ-1": "satisfied"}, decodeCheck(t, out).statuses()); diff != "" {
		t.Fatalf("statuses after review (-want +got):\n%s", diff)
	}
	// The example itself is left as it was: seg review wrote the copy.
	if code, _, _ := run("check", "--at", at, "--no-cache", "../examples/stale"); code != 1 {
		t.Fatalf("examples/stale passes after reviewing a copy: exit %d", code)
	}
}

// checkJSON is the part of seg-check/1 these tests read.
type checkJSON struct {
	Requirements []struct{ ID, Status string }
	Diagnostics  []struct{ Code, Message string }
}

func decodeCheck(t *testing.T, out string) checkJSON {
	t.Helper()
	var c checkJSON
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("seg-check/1: %v\n%s", err, out)
	}
	return c
}

func (c checkJSON) statuses() map[string]string {
	m := map[string]string{}
	for _, r := range c.Requirements {
		m[r.ID] = r.Status
	}
	return m
}

// seg review is a gate: on a tree with errors it fails and says why, even
// when no pinned link needs a review.
func TestReviewFailsOnErrors(t *testing.T) {
	code, _, stderr := run("review", "--at", "2026-11-29", "--no-cache", "../examples/broken")
	if code != 1 || !strings.Contains(stderr, "the tree has") {
		t.Fatalf("seg review examples/broken: exit %d, want 1 with the errors counted\n%s", code, stderr)
	}
	if code, _, stderr := run("review", "--at", "2026-11-29", "--no-cache", "../examples/brake"); code != 0 {
		t.Fatalf("seg review examples/brake: exit %d\n%s", code, stderr)
	}
}
