package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResultsFlaky(t *testing.T) {
	c, err := Parse("seg.toml", []byte("[results]\nflaky = \"passed\"\n"))
	if err != nil || c.ResultsFlaky != FlakyPassed || len(c.Results) != 0 {
		t.Fatalf("[results]: %+v, %v", c, err)
	}
	c, err = Parse("seg.toml", []byte("id_pattern = \".*\"\n"))
	if err != nil || c.ResultsFlaky != FlakyFailed {
		t.Fatalf("no [results]: flaky %q, %v", c.ResultsFlaky, err)
	}
	text := "# results\n\n[[results]]\npath = \"a.xml\"\nwitnesses = [\"I\"]\nflaky = \"passed\"\n\n  [[ results ]]\npath = \"b.xml\"\nconfig = \"arm\"\n"
	c, err = Parse("seg.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []ResultsRule{
		{Path: "a.xml", Witnesses: []string{"I"}, Flaky: FlakyPassed, Line: 3},
		{Path: "b.xml", Config: "arm", Flaky: FlakyFailed, Line: 8},
	}
	if diff := cmp.Diff(want, c.Results); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
}

func TestResultsErrors(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		{"[results]\nflaky = \"yes\"\n", `seg.toml:2: [results] flaky = "yes": want "failed"`},
		{"[[results]]\npath = \"a\"\nflaky = \"sometimes\"\n", `seg.toml:1: [[results]] flaky = "sometimes"`},
		{"[results]\nflaky = \"passed\"\n[[results]]\npath = \"a\"\n", `cannot both be in one file`},
		{"[results]\npath = \"a.xml\"\n", `[results] holds flaky only; results files are named in [[results]] tables (two brackets)`},
		{"[[results]]\npath = \"a.xml\"\nwitness = [\"I\"]\n", `seg.toml:3: unknown key "results.witness" (did you mean "results.witnesses"?) (known in [[results]]: path, witnesses, config, flaky)`},
		{"[[results]]\nwitnesses = [\"I\"]\n", `seg.toml:1: a [[results]] table needs a path`},
		{"results = 3\n", `results must be a [results] table`},
	} {
		_, err := Parse("seg.toml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}
