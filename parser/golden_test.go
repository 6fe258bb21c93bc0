package parser

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.json from the parser's output")

// TestGolden parses each testdata/golden/*.rst and compares the whole
// result (nodes with every position, option, link and body, and the
// diagnostics) with the .json file beside it. Run with -update to rewrite
// them, then read the diff.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.rst")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, fn := range files {
		t.Run(filepath.Base(fn), func(t *testing.T) {
			src, err := os.ReadFile(fn)
			if err != nil {
				t.Fatal(err)
			}
			f := ParseFile(filepath.Base(fn), src, DefaultConfig())
			got, err := json.MarshalIndent(f, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(fn, ".rst") + ".json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s", golden, diff)
			}
		})
	}
}
