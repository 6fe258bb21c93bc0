package rules

import (
	"os"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/needs"
)

// notEvaluated are the sphinx-needs settings of rules seg does not run:
// conf.py's names and, in a ubproject.toml, their keys under [needs].
var notEvaluated = []struct{ conf, toml string }{
	{"needs_schema_definitions", "schema_definitions"},
	{"needs_schema_definitions_from_json", "schema_definitions_from_json"},
	{"needs_constraints", "constraints"},
}

// NotEvaluated are the sphinx-needs schemas and constraints the project's
// file declares (what), which seg does not evaluate (rules-not-evaluated),
// with the file and the line of the first.
func NotEvaluated(p *needs.Project) (what []string, file string, line int) {
	if p == nil || p.File == "" {
		return nil, "", 0
	}
	switch {
	case strings.HasSuffix(p.File, ".py"):
		for _, s := range notEvaluated {
			if _, l, _, set, _ := needs.ConfPyValue(p.File, s.conf); set {
				what = append(what, s.conf)
				if line == 0 {
					line = l
				}
			}
		}
	case strings.HasSuffix(p.File, ".toml"):
		data, err := os.ReadFile(p.File)
		if err != nil {
			return nil, "", 0
		}
		var f struct {
			Needs map[string]any `toml:"needs"`
		}
		if _, err := toml.Decode(string(data), &f); err != nil {
			return nil, "", 0
		}
		for _, s := range notEvaluated {
			if _, set := f.Needs[s.toml]; set {
				what = append(what, "[needs] "+s.toml)
				if line == 0 {
					line = cfgfile.LineInSection(data, "needs", s.toml)
				}
			}
		}
	}
	return what, p.File, line
}
