package rules

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/lazyre"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/rules/metamodel"
	"github.com/seg-trace/seg/source"
)

// The codes of S-CORE's metamodel rules (docs/codes.md, docs/score.md).
// Each is an error where S-CORE's build fails on it (its checks warn, and
// S-CORE builds with warnings as errors); a graph check marked new_check,
// which S-CORE only reports, is a warning.
var (
	CodeMissingOption   = diag.NewError("schema-missing-option", "a need lacks an option its type makes mandatory")
	CodeOptionPattern   = diag.NewError("schema-option-pattern", "an option's value does not match its type's pattern")
	CodeMissingLink     = diag.NewError("schema-missing-link", "a need lacks a link its type makes mandatory")
	CodeLinkTarget      = diag.NewError("schema-link-target", "a link names a need whose ID fits none of the allowed target types")
	CodeExtraOption     = diag.NewError("schema-extra-option", "an option that is neither its type's nor sphinx-needs' own")
	CodeIDFormat        = diag.NewError("schema-id-format", "an ID without its type's number of __-separated parts")
	CodeIDLength        = diag.NewError("schema-id-length", "an ID longer than 45 characters")
	CodeIDFeature       = diag.NewError("schema-id-feature", "an ID whose feature part is neither in its document's path nor in required_in_id")
	CodeProhibitedWord  = diag.NewError("schema-prohibited-word", "a weak word in an option that a prohibited_words_checks entry forbids it in")
	CodeGraphCheck      = diag.NewError("schema-graph-check", "a linked need fails a graph_checks condition")
	CodeValidity        = diag.NewError("schema-validity", "valid_from is not before valid_until")
	CodeNeedextend      = diag.NewError("schema-needextend", "a needextend that replaces, deletes, or appends to a string option")
	CodeRulesNotChecked = diag.NewWarning("rules-not-evaluated", "the project declares sphinx-needs schemas or constraints that seg does not evaluate")
)

// ScoreChecks maps the names of S-CORE's checks (conf.py's
// score_metamodel_checks runs only those named) to the codes of the rules
// that do their work.
var ScoreChecks = map[string][]*diag.Code{
	"check_options":              {CodeMissingOption, CodeOptionPattern, CodeMissingLink, CodeLinkTarget},
	"check_extra_options":        {CodeExtraOption},
	"check_id_format":            {CodeIDFormat},
	"check_id_length":            {CodeIDLength},
	"id_contains_feature":        {CodeIDFeature},
	"check_for_prohibited_words": {CodeProhibitedWord},
	"check_validity_consistency": {CodeValidity},
	"check_metamodel_graph":      {CodeGraphCheck},
}

// maxIDLength is S-CORE's hard limit on the length of an ID.
const maxIDLength = 45

// exampleFeature is the feature part S-CORE's examples use, which a real
// feature name replaces: such IDs get its length more.
const exampleFeature = "example_feature"

// Score returns the rules of an S-CORE metamodel, as S-CORE's own checks
// apply them (docs/score.md). requiredInID is conf.py's required_in_id.
// The engine given them should have m as its Metamodel (ScoreEngine).
func Score(m *metamodel.Metamodel, requiredInID []string) []*Rule {
	s := &score{m: m, requiredInID: requiredInID}
	return []*Rule{
		{CodeMissingOption, "every mandatory option of the need's type is set (content: the need has a body)", s.local(s.missingOptions), nil},
		{CodeOptionPattern, "every value of an option matches the type's pattern (re.match: anchored at the start)", s.local(s.optionPatterns), nil},
		{CodeMissingLink, "every mandatory link of the need's type names a need", s.local(s.missingLinks), nil},
		{CodeLinkTarget, "every target of a link fits the ID pattern of one of the link's target types", s.local(s.linkTargets), nil},
		{CodeExtraOption, "every option set is one of the type's options or links, or sphinx-needs' own", s.local(s.extra), nil},
		{CodeIDFormat, "the ID has the type's number of __-separated parts", s.local(s.idFormat), nil},
		{CodeIDLength, "the ID is at most 45 characters long", s.local(s.idLength), nil},
		{CodeIDFeature, "the feature part of a three-part ID is in the document's path or in required_in_id", s.local(s.idFeature), nil},
		{CodeProhibitedWord, "no word a prohibited_words_checks entry forbids is in the options it names", s.local(s.words), nil},
		{CodeValidity, "valid_from comes before valid_until", s.local(s.validity), nil},
		{CodeGraphCheck, "every need a selected need links to fulfils the graph check's condition", nil, s.graph},
		{CodeNeedextend, "a needextend only appends to link and list options", nil, s.needextend},
	}
}

type score struct {
	m            *metamodel.Metamodel
	requiredInID []string
}

// local makes a rule that runs check on every need of the tree of a type
// of the metamodel, except those with status invalid: S-CORE reports
// nothing of them (they stay link targets of the graph checks).
func (s *score) local(check func(*Pass, *Need, *metamodel.Type)) func(*Pass, *Need) {
	return func(p *Pass, n *Need) {
		if n.Meta != nil && !n.Invalid {
			check(p, n, n.Meta)
		}
	}
}

// ScoreEngine is the engine of an S-CORE metamodel's rules.
func ScoreEngine(m *metamodel.Metamodel, requiredInID []string) *Engine {
	return &Engine{Rules: Score(m, requiredInID), Metamodel: m}
}

func (s *score) missingOptions(p *Pass, n *Need, t *metamodel.Type) {
	for _, o := range t.Mandatory {
		if !n.Has(o.Name) {
			p.Report(n.Pos(), "%s: is missing required attribute: `%s`", n.ID(), o.Name)
		}
	}
}

func (s *score) optionPatterns(p *Pass, n *Need, t *metamodel.Type) {
	for _, list := range [][]*metamodel.Option{t.Mandatory, t.Optional} {
		for _, o := range list {
			n.EachValue(o.Name, func(v string) {
				if !o.Pattern.Match(v) {
					p.Report(n.OptionSpan(o.Name), "%s.%s (%s): does not follow pattern `%s`", n.ID(), o.Name, v, o.Pattern.Source)
				}
			})
		}
	}
}

func (s *score) missingLinks(p *Pass, n *Need, t *metamodel.Type) {
	for _, l := range t.MandatoryLinks {
		if !n.Has(l.Name) {
			p.Report(n.Pos(), "%s: is missing required link: `%s`", n.ID(), l.Name)
		}
	}
}

func (s *score) linkTargets(p *Pass, n *Need, t *metamodel.Type) {
	for _, list := range [][]*metamodel.Link{t.MandatoryLinks, t.OptionalLinks} {
		for _, l := range list {
			o := n.Node.Option(l.Name)
			if o == nil {
				continue
			}
			allowed := s.targets(l)
			for _, e := range o.Links {
				if e.ID == "" || e.IsDynamic() {
					continue
				}
				if fits(e.ID, allowed) {
					// S-CORE checks the ID alone; a target whose own type is
					// none of the allowed ones is worth a warning.
					if tn := p.Lookup(e.ID); tn != nil && tn.Meta != nil && !l.Any && !slices.Contains(l.Targets, tn.Meta.Directive) {
						p.ReportAs(p.Warning(), e.Span, "%s: references '%s' as '%s': its ID fits %s, but it is a %s (%s)", n.ID(), e.ID, l.Name, names(allowed), tn.Meta.Title, tn.Meta.Directive)
					}
					continue
				}
				msg := fmt.Sprintf("%s: references '%s' as '%s', but it must reference %s", n.ID(), e.ID, l.Name, names(allowed))
				if tn := p.Lookup(e.ID); tn != nil {
					if tt := s.m.Type(tn.Type()); tt != nil {
						msg += fmt.Sprintf(" (%s is a %s (%s))", e.ID, tt.Title, tt.Directive)
					} else {
						msg += fmt.Sprintf(" (%s is a %s)", e.ID, tn.Type())
					}
				}
				p.Report(e.Span, "%s", msg)
			}
		}
	}
}

// targets are the types a link's targets may have: every type for ANY.
func (s *score) targets(l *metamodel.Link) []*metamodel.Type {
	if l.Any {
		return s.m.Types
	}
	var out []*metamodel.Type
	for _, name := range l.Targets {
		if t := s.m.Type(name); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// fits reports whether an ID matches one target type's ID pattern (S-CORE
// joins them with "|" and matches the ID against the whole).
func fits(id string, types []*metamodel.Type) bool {
	for _, t := range types {
		if t.IDPattern() != nil && t.IDPattern().Match(id) {
			return true
		}
	}
	return false
}

func names(types []*metamodel.Type) string {
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%s (%s)", t.Title, t.Directive)
	}
	if len(parts) == 0 {
		return "no type (the metamodel names none it has)"
	}
	return strings.Join(parts, " or ")
}

// sphinxNeedsFields are sphinx-needs' own fields a need may set besides a
// type's options (S-CORE's default options).
var sphinxNeedsFields = map[string]bool{
	"id": true, "status": true, "tags": true, "collapse": true, "delete": true, "jinja_content": true, "hide": true,
	"title_from_content": true, "style": true, "layout": true, "template": true, "pre_template": true,
	"post_template": true, "constraints": true, "constraints_passed": true, "constraints_results": true,
	"duration": true, "completion": true, "arch": true, "parts": true, "sections": true, "target_id": true,
	"full_title": true, "docname": true, "lineno": true, "type": true, "content": true, "title": true,
}

func (s *score) extra(p *Pass, n *Need, t *metamodel.Type) {
	for _, o := range n.Node.Options {
		if sphinxNeedsFields[o.Name] || t.Option(o.Name) != nil || t.Link(o.Name) != nil ||
			strings.HasSuffix(o.Name, "_back") || strings.TrimSpace(o.Value) == "" {
			continue
		}
		p.Report(source.At(o.Pos), "%s: has these extra options: `%s`", n.ID(), o.Name)
	}
}

func (s *score) idFormat(p *Pass, n *Need, t *metamodel.Type) {
	parts := strings.Count(n.ID(), "__") + 1
	if parts == t.Parts {
		return
	}
	var msg string
	switch t.Parts {
	case 2:
		msg = "expected to consist of this format: `<Req Type>__<Abbreviations>`. Only one '__' is allowed in this need's id"
	case 3:
		msg = "expected to consist of this format: `<Req Type>__<Abbreviations>__<Architectural Element>`. Only two '__' are allowed in this need's id"
	default:
		msg = fmt.Sprintf("expected %d parts separated by '__', not %d", t.Parts, parts)
	}
	p.Report(n.OptionSpan("id"), "%s.id (%s): %s", n.ID(), n.ID(), msg)
}

func (s *score) idLength(p *Pass, n *Need, _ *metamodel.Type) {
	id := n.ID()
	if len(id) <= maxIDLength {
		return
	}
	limit := maxIDLength
	if parts := strings.Split(id, "__"); len(parts) > 1 && parts[1] == exampleFeature {
		limit += len("_" + exampleFeature + "_")
	}
	if len(id) <= limit {
		return
	}
	length := len(id)
	if strings.Contains(id, exampleFeature) {
		length -= len("_" + exampleFeature + "_")
	}
	p.Report(n.OptionSpan("id"), "%s.id (%s): exceeds the maximum allowed length of %d characters (current length: %d)", id, id, maxIDLength, length)
}

var featureSplit = lazyre.New(`[_-]`)

func (s *score) idFeature(p *Pass, n *Need, _ *metamodel.Type) {
	id := n.ID()
	if strings.Count(id, "__") != 2 {
		return
	}
	parts := strings.Split(id, "__")
	if len(parts) != 3 || strings.HasPrefix(id, "stkh_req__") || parts[0] == "dec_rec" || parts[1] == exampleFeature {
		return
	}
	feature := parts[1]
	featureParts := featureSplit.Split(feature, -1)
	doc := path.Dir(n.Docname)
	if doc == "." {
		doc = n.Docname
	}
	doc = strings.ToLower(doc)
	for _, fp := range featureParts {
		if fp != "" && doc != "" && strings.Contains(doc, strings.ToLower(fp)) {
			return
		}
	}
	initials := ""
	if len(featureParts) > 1 {
		for _, fp := range featureParts {
			if fp != "" {
				initials += strings.ToLower(fp[:1])
			}
		}
	}
	if initials != "" && doc != "" && strings.Contains(doc, initials) {
		return
	}
	for _, r := range s.requiredInID {
		r = strings.ToLower(r)
		if r == "" {
			continue
		}
		if strings.Contains(strings.ToLower(feature), r) {
			return
		}
	}
	where := fmt.Sprintf("path '%s'", doc)
	if len(s.requiredInID) > 0 {
		where += fmt.Sprintf(" or required_in_id %v", s.requiredInID)
	}
	p.Report(n.OptionSpan("id"), "%s.id (%s): Featurepart %v not in %s or abbreviation not ok, expected: '%s'", id, id, featureParts, where, initials)
}

func (s *score) words(p *Pass, n *Need, t *metamodel.Type) {
	for _, c := range s.m.Prohibited {
		if len(c.Tags) > 0 {
			any := false
			for _, tag := range c.Tags {
				any = any || t.HasTag(tag)
			}
			if !any {
				continue
			}
		}
		for _, ow := range c.Words {
			v, ok := n.Field(ow.Option)
			text, isStr := v.(string)
			if !ok || !isStr {
				continue
			}
			for w := range strings.FieldsSeq(text) {
				norm := strings.ToLower(strings.Trim(w, punctuation))
				for _, bad := range ow.Words {
					if norm == bad {
						at := n.Pos()
						if ow.Option != "title" && ow.Option != "content" {
							at = n.OptionSpan(ow.Option)
						}
						p.Report(at, "%s: contains a weak word: `%s` in option: `%s`. Please revise the wording", n.ID(), norm, ow.Option)
						break
					}
				}
			}
		}
	}
}

// punctuation is Python's string.punctuation.
const punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

var milestone = lazyre.New(`^v(0|[1-9]\d*)\.(0|[1-9]\d*)(\.(0|[1-9]\d*))?$`)

// parseMilestone reads "v1.2" or "v1.2.3"; ok is false for anything else
// (the option's pattern reports it).
func parseMilestone(s string) (v [3]int, ok bool) {
	m := milestone.FindStringSubmatch(s)
	if m == nil {
		return v, false
	}
	v[0], _ = strconv.Atoi(m[1])
	v[1], _ = strconv.Atoi(m[2])
	if m[4] != "" {
		v[2], _ = strconv.Atoi(m[4])
	}
	return v, true
}

func (s *score) validity(p *Pass, n *Need, t *metamodel.Type) {
	if t.Option("valid_from") == nil || t.Option("valid_until") == nil {
		return
	}
	from, until := n.Values("valid_from"), n.Values("valid_until")
	if len(from) == 0 || len(until) == 0 {
		return
	}
	a, okA := parseMilestone(from[0])
	b, okB := parseMilestone(until[0])
	if !okA || !okB {
		return
	}
	if a[0] > b[0] || a[0] == b[0] && (a[1] > b[1] || a[1] == b[1] && a[2] >= b[2]) {
		p.Report(n.OptionSpan("valid_until"), "%s: inconsistent validity: valid_from (%s) >= valid_until (%s)", n.ID(), from[0], until[0])
	}
}

func (s *score) graph(p *Pass) {
	for _, g := range s.m.Graph {
		sev := p.sev
		if g.New {
			sev = p.Warning()
		}
		report := func(sp source.Span, format string, args ...any) { p.ReportAs(sev, sp, format, args...) }
		types := map[string]bool{}
		for _, t := range g.Types {
			types[t] = true
		}
		for _, n := range p.Needs {
			if types[n.Type()] != g.Include || n.Invalid {
				continue
			}
			var missing []string
			selected := g.Select.Eval(n, &missing)
			for _, a := range missing {
				report(n.Pos(), "%s: Attribute not defined: %s (graph check %s)", n.ID(), a, g.Name)
			}
			if !selected {
				continue
			}
			for _, lc := range g.Checks {
				if _, ok := n.Field(lc.Link); !ok {
					report(n.Pos(), "%s: Attribute not defined: `%s` in need `%s` (graph check %s)", n.ID(), lc.Link, n.ID(), g.Name)
					continue
				}
				o := n.Node.Option(lc.Link)
				if o == nil || p.Project.Link(lc.Link) == nil {
					continue
				}
				for _, e := range o.Links {
					parent := p.Lookup(e.ID)
					if parent == nil {
						// An unresolved link is unresolved-link's.
						continue
					}
					var miss []string
					ok := lc.Cond.Eval(parent, &miss)
					for _, a := range miss {
						report(e.Span, "%s: Attribute not defined: %s (in %s, graph check %s)", n.ID(), a, e.ID, g.Name)
					}
					if !ok {
						report(e.Span, "%s: Parent need `%s` does not fulfill condition `%s`. Explanation: %s", n.ID(), e.ID, lc.Cond, g.Explanation)
					}
				}
			}
		}
	}
}

// listOptions are sphinx-needs' own options that hold lists, which a
// needextend may append to.
var listOptions = map[string]bool{"tags": true, "constraints": true}

func (s *score) needextend(p *Pass) {
	for _, f := range p.Parsed {
		for i := range f.Nodes {
			nd := &f.Nodes[i]
			if nd.Kind != parser.Instruction || nd.Directive != "needextend" {
				continue
			}
			for _, o := range nd.Options {
				if o.Name == "strict" || o.Name == "extend_priority" {
					continue
				}
				base := strings.TrimLeft(o.Name, "+-")
				switch {
				case strings.HasPrefix(o.Name, "-"):
					p.Report(source.At(o.Pos), "needextend deletes :%s:, which S-CORE does not allow (a needextend may only append to a link or list option)", base)
				case !strings.HasPrefix(o.Name, "+"):
					p.Report(source.At(o.Pos), "needextend replaces :%s:, which S-CORE does not allow (a needextend may only append to a link or list option)", base)
				case p.Project.Link(base) == nil && !listOptions[base]:
					p.Report(source.At(o.Pos), "needextend appends to the string option :%s:, which S-CORE does not allow (a needextend may only append to a link or list option)", base)
				}
			}
		}
	}
}
