package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// [evidence.properties], [evidence] full-verification and [policy]
// (docs/results.md, docs/semantics.md "Evidence policies").
func TestEvidencePolicy(t *testing.T) {
	for _, tc := range []struct {
		name, toml string
		want       EvidencePolicy
		err        string
	}{
		{name: "none", toml: ""},
		{name: "properties", toml: "[evidence.properties]\nFullyVerifies = \"full\"\n\"seg.part\" = \"partial\"\n",
			want: EvidencePolicy{VerifyProperties: []VerifyProperty{{Name: "FullyVerifies"}, {Name: "seg.part", Partial: true}}}},
		{name: "no properties", toml: "[evidence.properties]\n", want: EvidencePolicy{VerifyProperties: []VerifyProperty{}}},
		{name: "bad property", toml: "[evidence.properties]\nFullyVerifies = \"yes\"\n",
			err: `config.toml:2: [evidence.properties] FullyVerifies = "yes": want "full"`},
		{name: "full verification", toml: "[evidence]\n\nfull-verification = true\n",
			want: EvidencePolicy{FullVerification: true, FullVerificationLine: 3}},
		{name: "policies", toml: "[policy]\nStd_Req = [\"implements\"]\ncomp = [\"fully-verifies\", \"implements\", \"implements\"]\n",
			want: EvidencePolicy{Policies: []Policy{
				{Directive: "std_req", Needs: []string{"implements"}, Line: 2},
				{Directive: "comp", Needs: []string{"implements", "fully-verifies"}, Line: 3},
			}}},
		{name: "empty policy", toml: "[policy]\nstd = []\n", err: "config.toml:2: [policy] std: an empty list would make every leaf satisfied without evidence"},
		{name: "typo", toml: "[policy]\nstd = [\"implement\"]\n", err: `config.toml:2: [policy] std: "implement" is no evidence word (did you mean "implements"?)`},
		{name: "not a list", toml: "[policy]\nstd = \"implements\"\n", err: "config.toml:2: [policy] std: want a list of words"},
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
			if diff := cmp.Diff(tc.want, c.EvidencePolicy); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
