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
	eachTestFile(t, "testdata/golden/*.rst", func(t *testing.T, fn string, src []byte, f *File) {
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

// eachTestFile parses every file the glob names, with the default config,
// in a subtest of its own.
func eachTestFile(t *testing.T, glob string, check func(t *testing.T, fn string, src []byte, f *File)) {
	t.Helper()
	files, _ := filepath.Glob(glob)
	if len(files) == 0 {
		t.Fatalf("no files match %s", glob)
	}
	for _, fn := range files {
		t.Run(filepath.Base(fn), func(t *testing.T) {
			src, err := os.ReadFile(fn)
			if err != nil {
				t.Fatal(err)
			}
			check(t, fn, src, ParseFile(filepath.Base(fn), src, DefaultConfig()))
		})
	}
}
