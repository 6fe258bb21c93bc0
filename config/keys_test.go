package config

import (
	"errors"
	"testing"
)

// A key seg.toml does not know is refused at every level, with its line,
// the nearest known key of its table and the table's keys.
func TestUnknownKeys(t *testing.T) {
	for _, tc := range []struct{ toml, want string }{
		{"id_patern = \"x\"\n",
			`seg.toml:1: unknown key "id_patern" (did you mean "id_pattern"?) (known: id_pattern, exclude, extra_options, literal_directives, [directives], [[results]], [needs], allow_empty, [matrix], [check], [review], [evidence], [policy], [code])`},
		{"# results\n[[results]]\npath = \"a.xml\"\n\n[[results]]\npath = \"b.xml\"\nwitness = [\"I-1\"]\n",
			`seg.toml:7: unknown key "results.witness" (did you mean "results.witnesses"?) (known in [[results]]: path, witnesses, config, flaky)`},
		{"[needs]\nconfg = \"x\"\n",
			`seg.toml:2: unknown key "needs.confg" (did you mean "needs.config"?) (known in [needs]: config, enabled, project, version, sphinx_needs, [types], [links], [external])`},
		{"[needs]\n[needs.typs]\nreq = \"requirement\"\n",
			`seg.toml:2: unknown key "needs.typs" (did you mean "needs.types"?) (known in [needs]: config, enabled, project, version, sphinx_needs, [types], [links], [external])`},
		{"[check]\nfail_onn = \"errors\"\n",
			`seg.toml:2: unknown key "check.fail_onn" (did you mean "check.fail_on"?) (known in [check]: fail_on, waiver_warn_days, [[ignore]])`},
		{"[chek]\nfail_on = \"errors\"\n",
			`seg.toml:1: unknown key "chek" (did you mean "check"?) (known: id_pattern, exclude, extra_options, literal_directives, [directives], [[results]], [needs], allow_empty, [matrix], [check], [review], [evidence], [policy], [code])`},
		{"[directive]\nhlr = \"requirement\"\n",
			`seg.toml:1: unknown key "directive" (did you mean "directives"?)`},
		{"check.fail_onn = 1\n",
			`seg.toml:1: unknown key "check.fail_onn" (did you mean "check.fail_on"?)`},
		{"zzz = 1\n",
			`seg.toml:1: unknown key "zzz" (known: `},
		// [directives] takes any directive name; its values are kinds.
		{"[directives]\nhlr = \"requirment\"\n",
			`seg.toml:2: directive "hlr" maps to unknown kind "requirment" (did you mean "requirement"?) (want requirement, test, implementation, outcome or waiver, or none to give the name away)`},
		{"[check]\nfail_on = 3\n",
			`seg.toml:2: [check] fail_on is a list of words (strings), such as ["errors", "failing"]`},
	} {
		_, err := Parse("seg.toml", []byte(tc.toml))
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%q: %v, want a *config.Error", tc.toml, err)
			continue
		}
		if got := err.Error(); len(got) < len(tc.want) || got[:len(tc.want)] != tc.want {
			t.Errorf("%q:\n  got  %s\n  want %s", tc.toml, got, tc.want)
		}
	}
	c, err := Parse("seg.toml", []byte("[check]\nfail_on = [\"errors\", \"failing\"]\n"))
	if err != nil || len(c.FailOn) != 2 || c.FailOnLine != 2 {
		t.Errorf("fail_on list: %+v, %v", c, err)
	}
}
