package check

import (
	"fmt"
	"path/filepath"

	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/rules"
	"github.com/seg-trace/seg/rules/metamodel"
	"github.com/seg-trace/seg/source"
)

// ruleEngine is the rules a tree is checked against (package rules): an
// S-CORE metamodel's, when the configuration found one, with seg.toml's
// [rules] severity applied. Its error is a bad config (exit 2).
func ruleEngine(cfg *config.Config) (*rules.Engine, error) {
	e := &rules.Engine{}
	if cfg.Metamodel != nil {
		e = rules.ScoreEngine(cfg.Metamodel, cfg.MetamodelFound.RequiredInID)
		if err := onlyChecks(e, cfg.MetamodelFound); err != nil {
			return nil, err
		}
	}
	for code, sev := range cfg.RuleSeverity {
		if err := e.SetSeverity(code, sev); err != nil {
			return nil, &config.Error{File: cfg.File, Line: cfg.RuleSeverityLine(code), Msg: "[rules] severity: " + err.Error()}
		}
	}
	return e, nil
}

// ruleProblems is what of the tree's rules seg cannot run: a bad
// metamodel (bad-metamodel, at its lines) and sphinx-needs schemas or
// constraints (rules-not-evaluated). It adds the files it points into to
// fset.
func (t *Tree) ruleProblems(fset *source.FileSet) diag.List {
	var out diag.List
	if m := t.Config.Metamodel; m != nil {
		out = append(out, t.badMetamodel(fset, m)...)
	}
	if what, file, line := t.notEvaluated(); len(what) > 0 {
		d := diag.Diagnostic{Code: rules.CodeRulesNotChecked,
			Message: fmt.Sprintf("the project declares %s, which seg does not evaluate", joinAnd(what)),
			Detail:  "sphinx-needs checks these in a Sphinx build; seg reports none of their findings. Run the Sphinx build for them, or write them as the rules of an S-CORE metamodel.yaml (docs/score.md)."}
		if sp, ok := t.fileLine(fset, file, line); ok {
			d.Span = sp
		}
		out = append(out, d)
	}
	return out
}

// runRules runs the tree's rules over the built graph. It only reads
// (the graph, the files, the project): it may run beside the evaluation.
func (t *Tree) runRules(parsed []*parser.File, external []parser.Node, g *graph.Graph) diag.List {
	if t.engine == nil || len(t.engine.Rules) == 0 {
		return nil
	}
	return t.engine.Run(rules.Input{Files: g.Files(), Parsed: parsed, External: external, Graph: g, Project: t.Config.Needs})
}

// badMetamodel are the problems of the metamodel, each at its line.
func (t *Tree) badMetamodel(fset *source.FileSet, m *metamodel.Metamodel) diag.List {
	if len(m.Problems) == 0 {
		return nil
	}
	name := m.File
	if r, err := filepath.Rel(t.Root, m.File); err == nil && filepath.IsLocal(r) {
		name = filepath.ToSlash(r)
	}
	f := fset.Add(name, len(m.Raw), source.Newlines)
	f.SetSource(m.Raw, true)
	lines := f.Lines()
	var out diag.List
	for _, pr := range m.Problems {
		sp := source.At(f.Pos(0))
		if pr.Line >= 1 && pr.Line <= len(lines) {
			off := int(lines[pr.Line-1])
			if pr.Col > 1 {
				off += pr.Col - 1
			}
			sp = source.At(f.Pos(min(off, len(m.Raw))))
		}
		out = append(out, diag.Diagnostic{Code: metamodel.CodeBad, Span: sp, Message: "bad metamodel: " + pr.Msg,
			Detail: "seg checks the tree against what it could read of the metamodel; the rest of the file is left out until this is fixed."})
	}
	return out
}

func joinAnd(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	s := ""
	for i, w := range words {
		switch {
		case i == 0:
		case i == len(words)-1:
			s += " and "
		default:
			s += ", "
		}
		s += w
	}
	return s
}

// notEvaluated is what rules.NotEvaluated finds in the project's file,
// read once per Tree (a live check runs many times over one Tree).
func (t *Tree) notEvaluated() (what []string, file string, line int) {
	t.notEval.once.Do(func() {
		t.notEval.what, t.notEval.file, t.notEval.line = rules.NotEvaluated(t.Config.Needs)
	})
	return t.notEval.what, t.notEval.file, t.notEval.line
}

// onlyChecks turns off the rules of the S-CORE checks that conf.py's
// score_metamodel_checks leaves out (seg.toml's [rules] severity, applied
// after, can turn one on again). A name of a check seg does not run (S-CORE
// has checks besides the metamodel's) enables nothing; the needextend
// policy is no check of S-CORE's list and always applies.
func onlyChecks(e *rules.Engine, f metamodel.Found) error {
	if len(f.Checks) == 0 {
		return nil
	}
	on := map[string]bool{rules.CodeNeedextend.Name: true}
	for _, name := range f.Checks {
		for _, c := range rules.ScoreChecks[name] {
			on[c.Name] = true
		}
	}
	for _, r := range e.Rules {
		if !on[r.Code.Name] {
			if err := e.SetSeverity(r.Code.Name, "off"); err != nil {
				return err
			}
		}
	}
	return nil
}
