package gen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/seg-trace/seg/rules/metamodel"
)

// ScoreOptions ask for a tree in Eclipse S-CORE's shape: needs of the
// types of a metamodel.yaml, with the options and links it names, links
// written as S-CORE pins them (ID[version==1]).
type ScoreOptions struct {
	N         int    // needs
	Seed      uint64 // the same seed gives the same bytes
	Metamodel []byte // the metamodel.yaml the tree follows
	// Baseline writes the same tree with the metamodel's types, links and
	// options in a ubproject.toml instead: what a hand-written mapping
	// gives, with none of the metamodel's rules.
	Baseline bool
	PerFile  int // needs per file (default 50)
}

// features are the folders the needs are in: an ID's feature part is its
// folder, as S-CORE's rules want.
var features = []string{"brakes", "steering", "lights", "doors", "seats", "wipers", "horn", "mirrors"}

// WriteScore writes an S-CORE-shaped tree into out (which must be empty
// or absent) and returns the number of files written.
func WriteScore(o ScoreOptions, out string) (int, error) {
	m := metamodel.Parse(o.Metamodel)
	if len(m.Problems) > 0 {
		return 0, fmt.Errorf("the metamodel: line %d: %s", m.Problems[0].Line, m.Problems[0].Msg)
	}
	if o.PerFile <= 0 {
		o.PerFile = 50
	}
	// The types whose IDs are made of their prefix (the others' ID
	// patterns name standards and the like).
	var types []*metamodel.Type
	for _, t := range m.Types {
		if t.IDPattern() != nil && t.IDPattern().Source == "^"+t.Prefix+"[0-9a-z_]+$" {
			types = append(types, t)
		}
	}
	if len(types) == 0 {
		return 0, fmt.Errorf("the metamodel has no type whose IDs are made of its prefix")
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x5c0e))
	declared := map[string]bool{"links": true}
	for _, l := range m.Links {
		declared[l.Option] = true
	}
	type need struct {
		t       *metamodel.Type
		id      string
		feature string
	}
	needs := make([]need, o.N)
	pool := map[string][]int{}
	for i := range needs {
		t := types[i%len(types)]
		f := features[(i/o.PerFile)%len(features)]
		id := fmt.Sprintf("%s%s_%d", t.Prefix, f, i)
		if t.Parts == 3 {
			id = fmt.Sprintf("%s%s__item_%d", t.Prefix, f, i)
		}
		needs[i] = need{t, id, f}
		pool[t.Directive] = append(pool[t.Directive], i)
	}
	files := 0
	var b strings.Builder
	flush := func(first int) error {
		if b.Len() == 0 {
			return nil
		}
		f := needs[first].feature
		p := filepath.Join(out, "docs", f, fmt.Sprintf("part_%04d.rst", first/o.PerFile))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		files++
		err := os.WriteFile(p, []byte(b.String()), 0o644)
		b.Reset()
		return err
	}
	for i, n := range needs {
		if i%o.PerFile == 0 {
			if err := flush(i - o.PerFile); err != nil {
				return files, err
			}
			fmt.Fprintf(&b, "Part %d\n%s\n\n", i/o.PerFile, strings.Repeat("=", len(fmt.Sprint(i/o.PerFile))+5))
		}
		fmt.Fprintf(&b, ".. %s:: Item %d of %s\n   :id: %s\n", n.t.Directive, i, n.t.Title, n.id)
		content := false
		for _, list := range []struct {
			opts      []*metamodel.Option
			mandatory bool
		}{{n.t.Mandatory, true}, {n.t.Optional, false}} {
			mandatory := list.mandatory
			for _, opt := range list.opts {
				switch opt.Name {
				case "id":
					continue
				case "content":
					content = true
					continue
				}
				if !mandatory && r.IntN(3) != 0 {
					continue
				}
				v, ok := valueFor(opt.Pattern)
				// Values that keep S-CORE's graph checks quiet: every
				// element safety-relevant and secure, validity in order.
				switch opt.Name {
				case "valid_until":
					v = "v9.0"
				case "safety":
					v = "ASIL_B"
				case "security":
					v = "YES"
				}
				if ok || mandatory {
					fmt.Fprintf(&b, "   :%s: %s\n", opt.Name, v)
				}
			}
		}
		for _, list := range []struct {
			links     []*metamodel.Link
			mandatory bool
		}{{n.t.MandatoryLinks, true}, {n.t.OptionalLinks, false}} {
			mandatory := list.mandatory
			for _, l := range list.links {
				if !mandatory && r.IntN(2) != 0 {
					continue
				}
				var cands []int
				if l.Any {
					cands = pool[types[r.IntN(len(types))].Directive]
				} else {
					for _, tn := range l.Targets {
						cands = append(cands, pool[tn]...)
					}
				}
				// Earlier needs only, where there are any: no cycle of
				// refinements (derived_from) can form.
				earlier := cands[:0:0]
				for _, c := range cands {
					if c < i {
						earlier = append(earlier, c)
					}
				}
				if len(earlier) > 0 || l.Name == "derived_from" {
					cands = earlier
				}
				if len(cands) == 0 || !declared[l.Name] {
					continue
				}
				var ids []string
				for k := 0; k < 1+r.IntN(3); k++ {
					id := needs[cands[r.IntN(len(cands))]].id + "[version==1]"
					if !slices.Contains(ids, id) {
						ids = append(ids, id)
					}
				}
				fmt.Fprintf(&b, "   :%s: %s\n", l.Name, strings.Join(ids, ", "))
			}
		}
		if content || r.IntN(2) == 0 {
			fmt.Fprintf(&b, "\n   The %s item %d is described here in one sentence.\n", n.t.Title, i)
		}
		b.WriteString("\n")
	}
	if err := flush(len(needs) - 1); err != nil {
		return files, err
	}
	conf := "project = \"Score bench\"\nextensions = [\"score_sphinx_bundle\"]\nscore_metamodel_yaml = \"metamodel.yaml\"\n"
	if o.Baseline {
		conf = "project = \"Score bench\"\nextensions = [\"sphinx_needs\"]\nneeds_from_toml = \"../ubproject.toml\"\n"
		if err := os.WriteFile(filepath.Join(out, "ubproject.toml"), []byte(baselineTOML(m)), 0o644); err != nil {
			return files, err
		}
	} else if err := os.WriteFile(filepath.Join(out, "docs", "metamodel.yaml"), o.Metamodel, 0o644); err != nil {
		return files, err
	}
	seg := "allow_empty = true\n"
	if o.Baseline {
		seg += "[needs.types]\n"
		for _, t := range m.Types {
			if t.HasTag("requirement") {
				seg += t.Directive + " = \"requirement\"\n"
			}
		}
		seg += "[needs.links]\nderived_from = \"refines\"\n"
	}
	return files + 2, errorsJoin(
		os.WriteFile(filepath.Join(out, "docs", "conf.py"), []byte(conf), 0o644),
		os.WriteFile(filepath.Join(out, "seg.toml"), []byte(seg), 0o644))
}

func errorsJoin(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// baselineTOML is the ubproject.toml of a metamodel's types, links and
// options, with requirements mapped as the metamodel maps them.
func baselineTOML(m *metamodel.Metamodel) string {
	var b strings.Builder
	b.WriteString("[needs]\nid_required = true\nid_regex = \"^[A-Za-z0-9_-]{6,}\"\ntypes = [\n")
	for _, t := range m.Types {
		fmt.Fprintf(&b, "  { directive = %q, title = %q, prefix = %q },\n", t.Directive, t.Title, t.Prefix)
	}
	b.WriteString("]\nextra_links = [\n")
	for _, l := range m.Links {
		fmt.Fprintf(&b, "  { option = %q, incoming = %q, outgoing = %q },\n", l.Option, l.Incoming, l.Outgoing)
	}
	b.WriteString("]\n")
	seen := map[string]bool{"id": true, "content": true, "status": true, "tags": true, "title": true, "template": true}
	for _, t := range m.Types {
		for _, list := range [][]*metamodel.Option{t.Mandatory, t.Optional} {
			for _, o := range list {
				if !seen[o.Name] {
					seen[o.Name] = true
					fmt.Fprintf(&b, "[needs.fields.%s]\n", o.Name)
				}
			}
		}
	}
	return b.String()
}

var alternatives = regexp.MustCompile(`^\^\(([^()]*)\)\$$`)

// valueFor is a value that matches a pattern of S-CORE's usual shapes,
// and whether it does.
func valueFor(p *metamodel.Pattern) (string, bool) {
	src := p.Source
	var cands []string
	if m := alternatives.FindStringSubmatch(src); m != nil {
		cands = append(cands, strings.Split(m[1], "|")[0])
	}
	cands = append(cands, "1", "v1.0", "AU_01_01", "AS_01_01", "Functional", "https://github.com/eclipse-score/score/issues/1", "https://github.com/x", "x", "yes", "YES")
	for _, c := range cands {
		if p.Match(c) {
			return c, true
		}
	}
	return "x", false
}
