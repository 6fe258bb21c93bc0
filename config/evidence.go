package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/parser"
)

// EvidencePolicy is what seg.toml says of the evidence a requirement
// needs and of the results properties that name requirements
// (docs/results.md, docs/semantics.md "Evidence policies").
type EvidencePolicy struct {
	// VerifyProperties is [evidence.properties]: the JUnit properties (go
	// test attributes) whose values name the requirements a case
	// verifies, each full or partial, in name order; nil when the table
	// is not there (the defaults apply), empty when it is empty.
	VerifyProperties []VerifyProperty
	// FullVerification is [evidence] full-verification: a leaf whose
	// active verifies edges are all partial is not verified.
	FullVerification bool
	// FullVerificationLine is the line of full-verification.
	FullVerificationLine int
	// Policies is the [policy] table, by directive (lower-cased), in
	// directive order.
	Policies []Policy
}

// VerifyProperty is one entry of [evidence.properties].
type VerifyProperty struct {
	Name    string
	Partial bool
}

// Policy is one entry of [policy]: the evidence a leaf requirement of a
// directive (a seg directive or a need type) needs.
type Policy struct {
	Directive string
	// Needs are the evidence words, in the order of PolicyWords, each
	// once: "implements", "verifies", "fully-verifies" (verifies, by at
	// least one verifies edge that is not partial).
	Needs []string
	// Line is the entry's line in the config file.
	Line int
}

// The evidence words of a [policy] entry.
const (
	PolicyImplements    = "implements"
	PolicyVerifies      = "verifies"
	PolicyFullyVerifies = "fully-verifies"
)

// PolicyWords are the words a [policy] entry takes, in the order Needs
// keeps them.
var PolicyWords = []string{PolicyImplements, PolicyVerifies, PolicyFullyVerifies}

// readEvidence reads [evidence.properties], [evidence] full-verification
// and [policy].
func (c *Config) readEvidence(f *fileFormat) error {
	if e := f.Evidence; e != nil {
		c.FullVerification = e.FullVerification
		if e.FullVerification {
			c.FullVerificationLine = cfgfile.LineInSection(c.Raw, "evidence", "full-verification")
		}
		if e.Properties != nil {
			c.VerifyProperties = []VerifyProperty{}
			for _, name := range slices.Sorted(maps.Keys(e.Properties)) {
				var partial bool
				switch v := e.Properties[name]; v {
				case "full":
				case "partial":
					partial = true
				default:
					return &Error{File: c.File, Line: propertyLine(c.Raw, name),
						Msg: fmt.Sprintf("[evidence.properties] %s = %q: want \"full\" (the case verifies the requirements it names) or \"partial\" (it verifies them in part)", name, v)}
				}
				c.VerifyProperties = append(c.VerifyProperties, VerifyProperty{Name: name, Partial: partial})
			}
		}
	}
	for _, d := range slices.Sorted(maps.Keys(f.Policy)) {
		line := cfgfile.LineInSection(c.Raw, "policy", d)
		if line == 0 {
			line = propertyLine(c.Raw, d)
		}
		fail := func(format string, args ...any) error {
			return &Error{File: c.File, Line: line, Msg: fmt.Sprintf("[policy] %s: ", d) + fmt.Sprintf(format, args...) +
				fmt.Sprintf(" (a policy is a list of the evidence a leaf of the type needs: %s)", strings.Join(quoted(PolicyWords), ", "))}
		}
		list, ok := f.Policy[d].([]any)
		if !ok {
			return fail("want a list of words, not %v", f.Policy[d])
		}
		if len(list) == 0 {
			return fail("an empty list would make every leaf satisfied without evidence")
		}
		have := map[string]bool{}
		for _, w := range list {
			s, ok := w.(string)
			if !ok {
				return fail("%v is no evidence word", w)
			}
			if !slices.Contains(PolicyWords, s) {
				return fail("%q is no evidence word%s", s, diag.DidYouMean(s, PolicyWords))
			}
			have[s] = true
		}
		p := Policy{Directive: strings.ToLower(d), Line: line}
		for _, w := range PolicyWords {
			if have[w] {
				p.Needs = append(p.Needs, w)
			}
		}
		c.Policies = append(c.Policies, p)
	}
	return nil
}

// propertyLine is the line a quoted or bare key name is written on, 0
// when it cannot be told.
func propertyLine(data []byte, name string) int {
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		for _, k := range []string{name, `"` + name + `"`, "'" + name + "'"} {
			if rest, ok := strings.CutPrefix(t, k); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
				return i + 1
			}
		}
	}
	return 0
}

func quoted(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = fmt.Sprintf("%q", w)
	}
	return out
}

// checkPolicies refuses a [policy] entry that names no requirement
// directive of the tree (a seg directive, one of [directives], or a need
// type mapped onto requirement): a typo would leave its type under the
// seed's rule without a word.
func (c *Config) checkPolicies() error {
	var reqs []string
	for d, k := range c.Parser.Directives {
		if k == parser.Requirement {
			reqs = append(reqs, d)
		}
	}
	slices.Sort(reqs)
	for _, p := range c.Policies {
		k, ok := c.Parser.Directives[p.Directive]
		switch {
		case !ok:
			return &Error{File: c.File, Line: p.Line, Msg: fmt.Sprintf("[policy] %q is no directive of the tree%s (its requirement directives: %s)",
				p.Directive, diag.DidYouMean(p.Directive, reqs), strings.Join(reqs, ", "))}
		case k != parser.Requirement:
			return &Error{File: c.File, Line: p.Line, Msg: fmt.Sprintf("[policy] %q is %s directive: a policy says what a requirement needs (its requirement directives: %s)",
				p.Directive, diag.Article(k.String()), strings.Join(reqs, ", "))}
		}
	}
	return nil
}
