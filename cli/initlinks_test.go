package cli

import (
	"testing"
)

func TestGuessLinkByName(t *testing.T) {
	for option, want := range map[string]string{
		"links":          `"auto"`,
		"satisfied_by":   `{ edge = "implements", reverse = true }`,
		"implemented_by": `{ edge = "implements", reverse = true }`,
		"verified_by":    `{ edge = "verifies", reverse = true }`,
		"refined_by":     `{ edge = "refines", reverse = true }`,
		"satisfies":      `"refines"`,
		"tests":          `"verifies"`,
		"covers":         "",
		"parent_needs":   "",
	} {
		got := ""
		if m, ok := guessLinkByName(option); ok {
			got = m.String()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", option, got, want)
		}
	}
}

func TestGuessLinkByUse(t *testing.T) {
	type p = [2]string
	for _, tc := range []struct {
		name  string
		pairs map[[2]string]int
		want  string
		why   string
	}{
		{"none", nil, "", ""},
		{"one edge", map[[2]string]int{p{"implementation", "requirement"}: 3}, `"implements"`,
			"guessed from its use in the tree (implementation→requirement 3)"},
		{"reversed", map[[2]string]int{p{"requirement", "test"}: 2}, `{ edge = "verifies", reverse = true }`,
			"guessed from its use in the tree (requirement→test 2)"},
		{"mixed", map[[2]string]int{p{"test", "requirement"}: 2, p{"requirement", "requirement"}: 2, p{"test", "implementation"}: 1}, `"auto"`,
			"guessed from its use in the tree (requirement→requirement 2, test→implementation 1, test→requirement 2)"},
		{"mostly nothing", map[[2]string]int{p{"test", "implementation"}: 3, p{"test", "requirement"}: 1}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, why, ok := guessLinkByUse(tc.pairs)
			got := ""
			if ok {
				got = m.String()
			}
			if got != tc.want || why != tc.why {
				t.Errorf("%q (%q), want %q (%q)", got, why, tc.want, tc.why)
			}
		})
	}
}
