package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The tables of docs/revisions.md: [review], [evidence] and [check].
func TestEvidenceSettings(t *testing.T) {
	type settings struct {
		RequirePins          bool
		MaxAgeDays, WarnDays int
	}
	for _, tc := range []struct {
		name, toml string
		want       settings
		err        string // a part of the error, "" for none
	}{
		{name: "defaults", toml: "", want: settings{WarnDays: 30}},
		{name: "all set", toml: "[review]\nrequire-pins = true\n[evidence]\nmax-age-days = 90\n[check]\nwaiver_warn_days = 14\n",
			want: settings{RequirePins: true, MaxAgeDays: 90, WarnDays: 14}},
		{name: "no warning", toml: "[check]\nwaiver_warn_days = 0\n", want: settings{WarnDays: 0}},
		{name: "zero age", toml: "[evidence]\nmax-age-days = 0\n", err: "config.toml:2: [evidence] max-age-days must be a positive whole number of days, not 0"},
		{name: "negative age", toml: "\n[evidence]\nmax-age-days = -3\n", err: "config.toml:3: [evidence] max-age-days must be a positive whole number of days, not -3"},
		{name: "age as text", toml: "[evidence]\nmax-age-days = \"90\"\n", err: "max-age-days"},
		{name: "negative warning", toml: "[check]\nwaiver_warn_days = -1\n", err: "config.toml:2: [check] waiver_warn_days must be a whole number of days, 0 or more, not -1"},
		{name: "pins as text", toml: "[review]\nrequire-pins = \"yes\"\n", err: "require-pins"},
		{name: "unknown key", toml: "[review]\nrequire_pins = true\n", err: `unknown key "review.require_pins"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("config.toml", []byte(tc.toml))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := settings{c.RequirePins, c.MaxAgeDays, c.WaiverWarnDays}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
