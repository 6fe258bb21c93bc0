package needs

import "testing"

func TestResolve(t *testing.T) {
	byID := map[string]int{"A": 1, "B.x": 2, "B": 3}
	for _, c := range []struct {
		id, part string
		to       int
		kept     string
		ok       bool
	}{
		{"A", "", 1, "", true},
		{"A", "p", 1, "p", true},
		{"B", "x", 2, "", true},
		{"B", "y", 3, "y", true},
		{"C", "", 0, "", false},
	} {
		to, kept, ok := Resolve(c.id, c.part, byID)
		if to != c.to || kept != c.kept || ok != c.ok {
			t.Errorf("Resolve(%q, %q) = %d, %q, %v; want %d, %q, %v", c.id, c.part, to, kept, ok, c.to, c.kept, c.ok)
		}
	}
}
