package config

import "testing"

// A value of the wrong type is seg's own message at its line: the key as
// the file writes it, what it holds and what it takes, never the TOML
// decoder's Go types.
func TestTypeErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"exclude = \"drafts\"\n", `seg.toml:1: exclude is a string (in quotes); it takes a list ([...])`},
		{"id_pattern = 3\n", `seg.toml:1: id_pattern is a whole number; it takes a string (in quotes)`},
		{"allow_empty = 1\n", `seg.toml:1: allow_empty is a whole number; it takes true or false`},
		{"[check]\n\nwaiver_warn_days = \"30\"\n", `seg.toml:3: [check] waiver_warn_days is a string (in quotes); it takes a whole number`},
		{"[check]\nignore = 3\n", `seg.toml:2: [check] ignore is a whole number; it takes a list ([...])`},
		{"[matrix]\ntitle = [\"a\"]\n", `seg.toml:2: [matrix] title is a list ([...]); it takes a string (in quotes)`},
	} {
		_, err := Parse("seg.toml", []byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, want %s", c.in, err, c.want)
		}
	}
}
