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

// A [policy] entry names a requirement directive of the tree.
func TestPolicyDirectives(t *testing.T) {
	for _, tc := range []struct {
		files map[string]string
		err   string
	}{
		{map[string]string{"seg.toml": "[policy]\nsreq = [\"implements\"]\n"}, ""},
		{map[string]string{"seg.toml": "[directives]\nstd = \"requirement\"\n[policy]\nstd = [\"implements\"]\n"}, ""},
		{map[string]string{"seg.toml": "[policy]\nsrq = [\"implements\"]\n"},
			`seg.toml:2: [policy] "srq" is no directive of the tree (did you mean "sreq"?) (its requirement directives: req, sreq, sys)`},
		{map[string]string{"seg.toml": "[policy]\ntest = [\"implements\"]\n"},
			`seg.toml:2: [policy] "test" is a test directive: a policy says what a requirement needs`},
		{map[string]string{
			"ubproject.toml": "[needs]\ntypes = [{directive = \"std_req\"}, {directive = \"gd\"}]\n",
			"seg.toml":       "[needs.types]\nstd_req = \"requirement\"\n[policy]\nstd_req = [\"implements\"]\n"}, ""},
		{map[string]string{
			"ubproject.toml": "[needs]\ntypes = [{directive = \"std_req\"}, {directive = \"gd\"}]\n",
			"seg.toml":       "[needs.types]\nstd_req = \"requirement\"\n[policy]\ngd = [\"implements\"]\n"},
			`seg.toml:4: [policy] "gd" is a need directive`},
	} {
		root := tree(t, tc.files)
		_, err := Load(root, "")
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%v: %v", tc.files, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: error %v, want %q", tc.files, err, tc.err)
		}
	}
}
