package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseFailOn(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want FailOn
		err  string
	}{
		{[]string{"errors,unsatisfied"}, DefaultFailOn, ""},
		{[]string{"errors", "failing"}, FailErrors | FailFailing, ""},
		{[]string{" Failing , UNPROVEN "}, DefaultFailOn, ""},
		// errors always count, named or not
		{[]string{"failing"}, FailErrors | FailFailing, ""},
		{[]string{"warnings"}, FailErrors | FailWarnings, ""},
		{[]string{"errors,warnings,unsatisfied"}, DefaultFailOn | FailWarnings, ""},
		{[]string{"failng"}, 0, `unknown word "failng" (did you mean "failing"?) (want any of errors, warnings, failing, unproven, unsatisfied, none)`},
		// none: report only, and alone
		{[]string{"none"}, FailNone, ""},
		{[]string{" NONE "}, FailNone, ""},
		{[]string{"none,errors"}, 0, "none stands alone"},
		{[]string{"failing", "none"}, 0, "none stands alone"},
		{[]string{""}, 0, "an empty list"},
		{nil, 0, "an empty list"},
		{[]string{" , "}, 0, "an empty list"},
	} {
		got, err := ParseFailOn(tc.in...)
		switch {
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
			t.Errorf("ParseFailOn(%q): error %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseFailOn(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	if s := (FailErrors | FailUnsatisfied | FailWarnings).String(); s != "errors,warnings,failing,unproven" {
		t.Errorf("String = %q", s)
	}
}

// The policy decides Failed from what the check shows: an error always
// fails; warnings, failing and unproven requirements fail when named.
func TestFailedUnderPolicy(t *testing.T) {
	trees := map[string]map[string]string{
		"unproven": {"a.rst": ".. sreq:: New\n   :id: R-1\n"},
		"failing": {"a.rst": ".. sreq:: R\n   :id: R-1\n\n.. test:: T\n   :id: T-1\n   :verifies: R-1\n\n" +
			".. impl:: I\n   :id: I-1\n   :implements: R-1\n\n" +
			".. outcome:: O\n   :id: O-1\n   :confirms: T-1\n   :witnesses: I-1\n   :result: failed\n"},
		"satisfied with a warning": {"a.rst": ".. sreq:: R\n   :id: R-1\n\n.. test:: T\n   :id: T-1\n   :verifies: R-1\n\n" +
			".. impl:: I\n   :id: I-1\n   :implements: R-1\n\n" +
			".. outcome:: O\n   :id: O-1\n   :confirms: T-1\n   :witnesses: I-1\n   :result: passed\n\n" +
			".. test:: Orphan\n   :id: T-2\n"},
		"broken link": {"a.rst": ".. sreq:: R\n   :id: R-1\n   :refines: R-NOPE\n"},
	}
	policies := []FailOn{0, DefaultFailOn, FailErrors | FailFailing, FailErrors | FailUnproven, FailErrors | FailWarnings, FailFailing, FailNone}
	want := map[string][]bool{
		//                           0      default errors,failing  errors,unproven  errors,warnings  failing  none
		"unproven":                 {true, true, false, true, false, false, false},
		"failing":                  {true, true, true, false, false, true, false},
		"satisfied with a warning": {false, false, false, false, true, false, false},
		"broken link":              {true, true, true, true, true, true, false},
	}
	for name, files := range trees {
		root := t.TempDir()
		for p, content := range files {
			if err := os.WriteFile(filepath.Join(root, p), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tree, err := Open(root, "")
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range policies {
			c, _, err := tree.Run(Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), FailOn: p})
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Failed(); got != want[name][i] {
				t.Errorf("%s under --fail-on %q: Failed() = %v, want %v", name, p, got, want[name][i])
			}
		}
	}
}

// [check] fail_on in seg.toml is the policy when --fail-on is not given;
// --fail-on wins over it; a bad word is a config error with its line.
func TestFailOnConfig(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.rst", ".. sreq:: New\n   :id: R-1\n")
	write("seg.toml", "[check]\nfail_on = [\"errors\", \"failing\"]\n")
	tree, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tree.Run(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Failed() || c.Policy() != FailErrors|FailFailing {
		t.Errorf("fail_on = [errors, failing]: Failed %v, policy %v", c.Failed(), c.Policy())
	}
	c, _, _ = tree.Run(Options{FailOn: DefaultFailOn})
	if !c.Failed() {
		t.Error("--fail-on errors,unsatisfied does not win over the config")
	}
	write("seg.toml", "[check]\nfail_on = \"errors,failing\"\n")
	if tree, err = Open(root, ""); err != nil || tree.FailOn != FailErrors|FailFailing {
		t.Errorf("fail_on as one string: %v, %v", tree, err)
	}
	write("seg.toml", "# policy\n[check]\nfail_on = [\"errors\", \"unprovne\"]\n")
	_, err = Open(root, "")
	if err == nil || !strings.Contains(err.Error(), `seg.toml:3: [check] fail_on: unknown word "unprovne" (did you mean "unproven"?)`) {
		t.Errorf("bad word: %v", err)
	}
}
