package parser

import (
	"strings"
	"testing"
	"time"
)

// TestPathological feeds inputs that would make a naive scanner slow:
// backtracking option lists, deep nesting, long runs of markers.
func TestPathological(t *testing.T) {
	// Every node's body holds its descendants, so the bodies of n nested
	// nodes add up to O(n^2) bytes, as in docutils: keep n modest.
	var deep strings.Builder
	for i := 0; i < 400; i++ {
		deep.WriteString(strings.Repeat(" ", i) + ".. sreq:: x\n" + strings.Repeat(" ", i+1) + ":id: A\n\n")
	}
	var bullets strings.Builder
	for i := 0; i < 3000; i++ {
		bullets.WriteString(strings.Repeat("- ", i%200) + "x\n")
	}
	tests := map[string]string{
		"option list":       strings.Repeat("-a b, ", 5000) + "-a  text\n",
		"option list fails": strings.Repeat("-ab, ", 5000) + "x\n",
		"deep nesting":      deep.String(),
		"bullets":           bullets.String(),
		"grid":              strings.Repeat("+"+strings.Repeat("-+", 300)+"\n"+"|"+strings.Repeat(" |", 300)+"\n", 300),
		"simple":            strings.Repeat("= ", 2000) + "\n" + strings.Repeat("a ", 2000) + "\n" + strings.Repeat("= ", 2000) + "\n",
		"enumerators":       strings.Repeat("#. ", 5000) + "\n",
		"fields":            strings.Repeat(":a\\:", 5000) + "\n",
		"comments":          strings.Repeat("..\n", 20000),
		"titles":            strings.Repeat("=====\nTitle\n=====\n", 5000),
	}
	for name, src := range tests {
		start := time.Now()
		parseString("t.rst", src, DefaultConfig())
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: %v", name, d)
		}
	}
}
