package testing_test

import (
	"os/exec"
	"strings"
	"testing"
)

// No product package imports what is under internal/testing: only tests
// (and the test-only helpers themselves) may.
func TestTestingIsTestOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, "github.com/seg-trace/seg/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		if strings.Contains(pkg, "/internal/testing") {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if strings.Contains(imp, "seg/internal/testing") {
				t.Errorf("%s imports %s, which only tests may", pkg, imp)
			}
		}
	}
}
