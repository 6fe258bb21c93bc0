package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/seg-trace/seg/diag"
)

// Every stable code has its own section in docs/codes.md, and the docs
// name no code the program does not know.
func TestEveryCodeIsDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/codes.md")
	if err != nil {
		t.Fatal(err)
	}
	headings := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok && !strings.Contains(h, " ") {
			headings[h] = true
		}
	}
	for _, c := range diag.Codes() {
		if !headings[c.Name] {
			t.Errorf("docs/codes.md has no section for %q", c.Name)
		}
		delete(headings, c.Name)
	}
	for h := range headings {
		t.Errorf("docs/codes.md documents %q, which the code registry does not list", h)
	}
}
