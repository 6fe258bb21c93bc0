package check

import (
	"fmt"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/evaluate"
)

// FailOn is what fails a check (exit code 1): a set of the findings
// --fail-on and [check] fail_on name (docs/check.md, "What fails a
// check"). It is decided here, once; every format that states an exit
// code (the process, SARIF's invocation) asks Failed.
type FailOn uint8

const (
	// FailErrors: an error diagnostic. It is always part of a policy: an
	// error means some of the tree was not read as written (a broken
	// link, a bad option), and a green check over it would claim a trace
	// that does not hold.
	FailErrors FailOn = 1 << iota
	// FailWarnings: a warning diagnostic.
	FailWarnings
	// FailFailing: a requirement whose status is failing (evidence
	// against it).
	FailFailing
	// FailUnproven: a requirement whose status is unproven (evidence
	// missing).
	FailUnproven
	// FailNone: nothing fails the check; seg reports (--fail-on none, the
	// first step of adopting seg on a tree, docs/adopt.md). It stands
	// alone: no other word goes with it.
	FailNone

	// FailUnsatisfied is failing and unproven.
	FailUnsatisfied = FailFailing | FailUnproven
	// DefaultFailOn is the policy when neither --fail-on nor [check]
	// fail_on says otherwise: errors and unsatisfied requirements.
	DefaultFailOn = FailErrors | FailUnsatisfied
)

// ReportsOnly reports whether the check fails on nothing (--fail-on
// none): its report says so, since an exit code of 0 then says nothing
// about the trace.
func (c *Check) ReportsOnly() bool { return c.Policy() == FailNone }

// failOnWords is the vocabulary of --fail-on, in the order String writes.
var failOnWords = []struct {
	word string
	set  FailOn
}{
	{"errors", FailErrors},
	{"warnings", FailWarnings},
	{"failing", FailFailing},
	{"unproven", FailUnproven},
	{"unsatisfied", FailUnsatisfied},
	{"none", FailNone},
}

// FailOnWords lists the words --fail-on takes, for help texts.
func FailOnWords() []string {
	out := make([]string, len(failOnWords))
	for i, w := range failOnWords {
		out[i] = w.word
	}
	return out
}

// ParseFailOn reads a --fail-on list: words separated by commas (each
// element of words may hold several), case and spaces ignored. Errors
// are added when not named (FailErrors). An empty list or an unknown word
// is an error that names the vocabulary.
func ParseFailOn(words ...string) (FailOn, error) {
	var f FailOn
	for _, list := range words {
		for _, w := range strings.Split(list, ",") {
			w = strings.ToLower(strings.TrimSpace(w))
			if w == "" {
				continue
			}
			found := false
			for _, v := range failOnWords {
				if v.word == w {
					f |= v.set
					found = true
				}
			}
			if !found {
				return 0, fmt.Errorf("unknown word %q%s (want any of %s)", w, diag.DidYouMean(w, FailOnWords()), strings.Join(FailOnWords(), ", "))
			}
		}
	}
	if f == 0 {
		return 0, fmt.Errorf("an empty list (want any of %s)", strings.Join(FailOnWords(), ", "))
	}
	if f&FailNone != 0 {
		if f != FailNone {
			return 0, fmt.Errorf("none stands alone: it means nothing fails the check (report only), so no other word goes with it")
		}
		return FailNone, nil
	}
	return f | FailErrors, nil
}

// String is the policy as a --fail-on list, unsatisfied written out as
// failing,unproven.
func (f FailOn) String() string {
	var out []string
	for _, v := range failOnWords {
		if v.set != FailUnsatisfied && f&v.set != 0 {
			out = append(out, v.word)
		}
	}
	return strings.Join(out, ",")
}

// Failed reports whether the check fails under its policy (FailOn; the
// default when unset): an error diagnostic, or anything else the policy
// names, among what the check shows (a narrowed check shows what the
// named files bear on).
func (c *Check) Failed() bool {
	p := c.Policy()
	if p == FailNone {
		return false
	}
	n := c.Counts()
	return n.Errors > 0 || len(c.Shortfalls()) > 0 ||
		p&FailWarnings != 0 && n.Warnings > 0 ||
		p&FailFailing != 0 && n.Failing > 0 ||
		p&FailUnproven != 0 && n.Unproven > 0
}

// FailsOn reports whether requirement r, unsatisfied, is one the policy
// fails the check for (its status is failing, or unproven, and the
// policy names that): a report marks those as errors and the others as
// warnings, so that an annotation's level agrees with the exit code.
func (c *Check) FailsOn(r Requirement) bool {
	p := c.Policy()
	switch r.Verdict.Status {
	case evaluate.Satisfied:
		return false
	case evaluate.Failing:
		return p&FailFailing != 0
	}
	return p&FailUnproven != 0
}

// Policy is what fails the check: FailOn, or DefaultFailOn when unset.
func (c *Check) Policy() FailOn {
	if c.FailOn == 0 {
		return DefaultFailOn
	}
	if c.FailOn == FailNone {
		return FailNone
	}
	return c.FailOn | FailErrors
}
