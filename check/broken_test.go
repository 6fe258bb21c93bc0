package check

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// A failed outcome broken in any way still counts against its test's
// requirement (semantics.md: bad input never makes evidence against a
// requirement disappear), and a passing one broken does not count for it:
// each tree has a passing outcome on the same test, so dropping the broken
// one would make R satisfied.
func TestBrokenOutcomesCountAgainst(t *testing.T) {
	const good = `
.. sreq:: Brake on command
   :id: R

.. test:: Brake latency
   :id: T
   :verifies: R

.. impl:: Controller
   :id: I
   :implements: R

.. outcome:: Bench run
   :id: O-PASS
   :confirms: T
   :witnesses: I
   :result: passed
`
	for _, tc := range []struct {
		name, bad string
		codes     []string // the diagnostics
	}{
		{"result given twice", `
.. outcome:: Failed run
   :id: O-FAIL
   :confirms: T
   :witnesses: I
   :result: failed
   :result: passed
`, []string{"duplicate-option"}},
		{"an unknown option", `
.. outcome:: Failed run
   :id: O-FAIL
   :confirms: T
   :witnesses: I
   :result: failed
   :colour: red
`, []string{"unknown-option"}},
		{"a malformed option block, the bad line last", `
.. outcome:: Failed run
   :id: O-FAIL
   :confirms: T
   :witnesses: I
   :result: failed
   :bad name: x
`, []string{"malformed-directive"}},
		{"a malformed option block, the bad line first", `
.. outcome:: Failed run
   :id: O-FAIL
   not a field
   :confirms: T
   :witnesses: I
   :result: failed
`, []string{"malformed-directive"}},
		{"no :id:", `
.. outcome:: Failed run
   :confirms: T
   :witnesses: I
   :result: failed
`, []string{"missing-id"}},
		{"no :id:, and it passed", `
.. outcome:: Passed run
   :confirms: T
   :witnesses: I
   :result: passed
`, []string{"missing-id"}},
		// a.rst sorts before z.rst: the duplicate is the later definition,
		// and either way both count.
		{"the ID of the passing outcome, defined later", `
.. outcome:: Failed run
   :id: O-PASS
   :confirms: T
   :witnesses: I
   :result: failed
`, []string{"duplicate-id"}},
		{"no :result:, unwitnessed", `
.. outcome:: Failed run
   :id: O-FAIL
   :confirms: T
`, []string{"missing-option", "unwitnessed-outcome"}},
	} {
		for _, order := range []string{"broken file first", "broken file last"} {
			t.Run(tc.name+", "+order, func(t *testing.T) {
				root := t.TempDir()
				names := [2]string{"a.rst", "z.rst"}
				if order == "broken file last" {
					names = [2]string{"z.rst", "a.rst"}
				}
				writeTree(t, root, map[string]string{names[0]: tc.bad, names[1]: good})
				tr, err := Open(root, "")
				if err != nil {
					t.Fatal(err)
				}
				c, _, err := tr.Run(Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)})
				if err != nil {
					t.Fatal(err)
				}
				var codes []string
				for _, d := range c.Diagnostics {
					codes = append(codes, d.Code.Name)
				}
				slices.Sort(codes)
				if strings.Join(codes, " ") != strings.Join(tc.codes, " ") {
					t.Errorf("diagnostics %q, want %q", codes, tc.codes)
				}
				for _, r := range c.Requirements() {
					if r.Verdict.Satisfied {
						t.Fatalf("R is satisfied: the broken outcome was dropped")
					}
					var reasons []string
					for _, re := range r.Verdict.Blocking() {
						reasons = append(reasons, re.Code.Name)
					}
					if !slices.Contains(reasons, "outcome-invalid") && !slices.Contains(reasons, "outcome-failed") {
						t.Errorf("R's blocking reasons %q say nothing of the broken outcome", reasons)
					}
				}
				if !c.Failed() {
					t.Error("the check passes")
				}
			})
		}
	}
}
