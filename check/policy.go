package check

import (
	"fmt"

	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/evaluate"
)

// policies are the config's evidence policies as evaluate takes them, nil
// when it has none (docs/semantics.md, "Evidence policies").
func (t *Tree) policies() *evaluate.Policies {
	c := t.Config
	if len(c.Policies) == 0 && !c.FullVerification {
		return nil
	}
	where := func(line int) string {
		if c.File == "" {
			return ""
		}
		name := configName(t.Root, c.File)
		if line > 0 {
			name += fmt.Sprintf(":%d", line)
		}
		return name
	}
	ps := &evaluate.Policies{ByDirective: map[string]*evaluate.Policy{}}
	if c.FullVerification {
		ps.Full = &evaluate.Policy{Implements: true, Verifies: true, FullyVerifies: true, Where: where(c.FullVerificationLine)}
	}
	for _, p := range c.Policies {
		ep := &evaluate.Policy{Directive: p.Directive, Where: where(p.Line)}
		for _, w := range p.Needs {
			switch w {
			case config.PolicyImplements:
				ep.Implements = true
			case config.PolicyVerifies:
				ep.Verifies = true
			case config.PolicyFullyVerifies:
				ep.Verifies, ep.FullyVerifies = true, true
			}
		}
		// The project's full verification holds for a type with a
		// policy of its own too, when that policy asks for verification.
		if c.FullVerification && ep.Verifies {
			ep.FullyVerifies = true
		}
		ps.ByDirective[p.Directive] = ep
	}
	return ps
}
