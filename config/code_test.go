package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCode(t *testing.T) {
	c, err := Parse("seg.toml", []byte("id_pattern = \".*\"\n\n[code]\npaths = [\"src/**\"]\ntags = [\"score\", \"oft\"]\ncustom = ['Impl\\(([^)]*)\\)']\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := CodeConfig{Set: true, Paths: []string{"src/**"}, Tags: []string{"score", "oft"}, Custom: []string{`Impl\(([^)]*)\)`}, Line: 3}
	if diff := cmp.Diff(want, c.Code); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if c, err := Parse("seg.toml", []byte("id_pattern = \".*\"\n")); err != nil || c.Code.Set {
		t.Errorf("no [code]: %+v %v", c.Code, err)
	}
	for _, tc := range []struct{ text, want string }{
		{"[code]\ntags = [\"scor\"]\n", `seg.toml:2: [code] tags: unknown tag syntax "scor" (did you mean "score"?)`},
		{"[code]\ncustom = [\"a(b\"]\n", `seg.toml:2: [code] custom expression "a(b": error parsing regexp`},
		{"[code]\ncustom = [\"ab\"]\n", `it has 0 capture groups; it needs exactly one`},
		{"[code]\npaths = [\"../x/**\"]\n", `[code] paths entry "../x/**" is not a glob relative to the root`},
		{"[code]\npaths = [\"src/[\"]\n", `[code] paths entry "src/[" is not a glob relative to the root`},
		{"[code]\npath = [\"src\"]\n", `unknown key "code.path"`},
	} {
		_, err := Parse("seg.toml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}
