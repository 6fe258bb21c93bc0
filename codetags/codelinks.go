package codetags

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
)

// CodelinksProject is one project of the [codelinks] table of
// ubproject.toml: where its sources are (Dir, a slash path relative to the
// root, "" for the whole tree), which files it leaves out, and how its
// comments are read.
type CodelinksProject struct {
	Name    string
	Dir     string
	Exclude []string // globs relative to Dir
	Analyse CodelinksAnalyse
}

// CodelinksAnalyse is a project's analyse settings that a scan reads.
type CodelinksAnalyse struct {
	NeedIDRefs bool     // get_need_id_refs
	Markers    []string // need_id_refs.markers
	OneLine    bool     // get_oneline_needs
	Style      OneLineStyle
	// styleSet: the one-line style was configured, not sphinx-codelinks'
	// default (so a line it matches was meant as a need).
	styleSet bool
}

// OneLineStyle is a one-line comment style (oneline_comment_style).
type OneLineStyle struct {
	Start, End string // start_sequence, end_sequence ("\n": the end of the line)
	Split      string // field_split_char
	Fields     []Field
}

// Field is one of a one-line need's positional fields.
type Field struct {
	Name    string
	List    bool // type "list[str]"
	Default *string
	// ListDefault is a list field's default ("[]" when given as empty).
	HasDefault bool
}

// DefaultAnalyse is sphinx-codelinks' default: "@need-ids:" references and
// one-line needs "@ title, id, type, [links]" (a project's one-line needs
// are always read).
func DefaultAnalyse() CodelinksAnalyse {
	impl := "impl"
	return CodelinksAnalyse{
		NeedIDRefs: true, Markers: []string{"@need-ids:"}, OneLine: true,
		Style: OneLineStyle{Start: "@", End: "\n", Split: ",", Fields: []Field{
			{Name: "title"}, {Name: "id"},
			{Name: "type", Default: &impl, HasDefault: true},
			{Name: "links", List: true, HasDefault: true},
		}},
	}
}

// ubCodelinks is the part of ubproject.toml a scan reads.
type ubCodelinks struct {
	Codelinks struct {
		Projects map[string]struct {
			SourceDiscover struct {
				SrcDir  *string  `toml:"src_dir"`
				Exclude []string `toml:"exclude"`
			} `toml:"source_discover"`
			Analyse struct {
				GetNeedIDRefs   *bool `toml:"get_need_id_refs"`
				GetOnelineNeeds *bool `toml:"get_oneline_needs"`
				NeedIDRefs      *struct {
					Markers []string `toml:"markers"`
				} `toml:"need_id_refs"`
				Style *struct {
					Start  *string `toml:"start_sequence"`
					End    *string `toml:"end_sequence"`
					Split  *string `toml:"field_split_char"`
					Fields []struct {
						Name    string `toml:"name"`
						Type    string `toml:"type"`
						Default any    `toml:"default"`
					} `toml:"needs_fields"`
				} `toml:"oneline_comment_style"`
			} `toml:"analyse"`
		} `toml:"projects"`
	} `toml:"codelinks"`
}

// ReadCodelinks reads the [codelinks] projects of a ubproject.toml whose
// bytes are data and whose folder, relative to the root, is dir (a slash
// path, "" for the root). A file without the table has no projects.
func ReadCodelinks(dir string, data []byte) ([]CodelinksProject, error) {
	var ub ubCodelinks
	if _, err := toml.Decode(string(data), &ub); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ub.Codelinks.Projects))
	for n := range ub.Codelinks.Projects {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []CodelinksProject
	for _, name := range names {
		p := ub.Codelinks.Projects[name]
		cp := CodelinksProject{Name: name, Analyse: DefaultAnalyse()}
		src := "./"
		if p.SourceDiscover.SrcDir != nil {
			src = *p.SourceDiscover.SrcDir
		}
		d := path.Clean(path.Join(dir, strings.ReplaceAll(src, `\`, "/")))
		if d == "." {
			d = ""
		}
		cp.Dir, cp.Exclude = d, p.SourceDiscover.Exclude
		a := &cp.Analyse
		if p.Analyse.GetNeedIDRefs != nil {
			a.NeedIDRefs = *p.Analyse.GetNeedIDRefs
		}
		if p.Analyse.NeedIDRefs != nil && p.Analyse.NeedIDRefs.Markers != nil {
			a.Markers = p.Analyse.NeedIDRefs.Markers
		}
		if st := p.Analyse.Style; st != nil {
			a.styleSet = true
			if st.Start != nil {
				a.Style.Start = *st.Start
			}
			if st.End != nil {
				a.Style.End = *st.End
				if a.Style.End == "\r\n" {
					a.Style.End = "\n"
				}
			}
			if st.Split != nil {
				a.Style.Split = *st.Split
			}
			if st.Fields != nil {
				a.Style.Fields = nil
				for _, f := range st.Fields {
					fd := Field{Name: f.Name, List: f.Type == "list[str]"}
					switch v := f.Default.(type) {
					case string:
						fd.Default, fd.HasDefault = &v, true
					case []any:
						fd.HasDefault = true
					}
					a.Style.Fields = append(a.Style.Fields, fd)
				}
			}
			if a.Style.Split == "" || len([]rune(a.Style.Split)) != 1 {
				return nil, fmt.Errorf("[codelinks.projects.%s.analyse.oneline_comment_style] field_split_char must be one character", name)
			}
		}
		out = append(out, cp)
	}
	return out, nil
}

// commentLeaders are what may come before a one-line need's start
// sequence: seg reads lines, not comments, so a one-line need counts only
// after a comment's leader (and comment decoration), never after code.
var commentLeaders = []string{"//", "#", "/*", "*", "--", ";", "%", "<!--", "'", "!"}

// oneLine reads a one-line need whose start sequence is at line[at].
// configured says the style was set by the project: with sphinx-codelinks'
// default style ("@", which doc comments use for other things), a line is
// a need only when it writes every field up to its last list field.
func oneLine(line []byte, at int, st *OneLineStyle, configured bool) (Tag, bool) {
	pre := bytes.TrimSpace(line[:at])
	if st.End == "\n" {
		if bytes.ContainsFunc(line[:at], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			return Tag{}, false
		}
		leader := false
		for _, c := range commentLeaders {
			if bytes.HasPrefix(pre, []byte(c)) {
				leader = true
				break
			}
		}
		if !leader {
			return Tag{}, false
		}
	}
	from := at + len(st.Start)
	to := len(line)
	if st.End != "\n" {
		e := bytes.LastIndex(line[from:], []byte(st.End))
		if e < 0 {
			return Tag{}, false
		}
		to = from + e
	}
	var lists []int
	for i, f := range st.Fields {
		if f.List {
			lists = append(lists, i)
		}
	}
	fields := splitFields(line, from, to, []rune(st.Split)[0], lists)
	required := 0
	for _, f := range st.Fields {
		if !f.HasDefault {
			required++
		}
	}
	t := Tag{Syntax: SyntaxCodelinks, Marker: st.Start, Col: at + 1}
	if !configured {
		need := required
		if len(lists) > 0 {
			need = max(need, lists[len(lists)-1]+1)
		}
		if len(fields) < need || len(fields) > len(st.Fields) {
			return Tag{}, false
		}
	}
	switch {
	case len(fields) < required:
		t.Problem = fmt.Sprintf("a one-line need with %d fields; the style needs at least %d", len(fields), required)
		return t, true
	case len(fields) > len(st.Fields):
		t.Problem = fmt.Sprintf("a one-line need with %d fields; the style has %d", len(fields), len(st.Fields))
		return t, true
	}
	for i, f := range st.Fields {
		if i >= len(fields) {
			if f.Name == "type" && f.Default != nil {
				t.Type = *f.Default
			}
			continue
		}
		v := fields[i]
		if f.List {
			raw := strings.TrimSpace(v.raw)
			if !strings.HasPrefix(raw, "[") || !strings.HasSuffix(raw, "]") {
				if !configured {
					return Tag{}, false
				}
				t.Problem = fmt.Sprintf("the field %s of a one-line need must be written in [ and ]", f.Name)
				return t, true
			}
			open := v.start + strings.Index(v.raw, "[") + 1
			close := v.start + strings.LastIndex(v.raw, "]")
			for _, item := range splitFields(line, open, close, ',', nil) {
				if id := strings.TrimSpace(item.text); id != "" {
					lead := len(item.raw) - len(strings.TrimLeft(item.raw, " \t"))
					t.Refs = append(t.Refs, Ref{ID: id, Col: item.start + lead + 1})
				}
			}
			continue
		}
		text := strings.TrimSpace(v.text)
		switch f.Name {
		case "id":
			t.NeedID = text
		case "title":
			t.Title = text
		case "type":
			t.Type = text
		}
	}
	if t.NeedID == "" {
		if !configured {
			return Tag{}, false
		}
		t.Problem = "a one-line need without an ID: seg needs the ID to know the need by"
	} else if strings.ContainsAny(t.NeedID, " \t,") {
		if !configured {
			return Tag{}, false
		}
		t.Problem = fmt.Sprintf("a one-line need's ID %q holds a blank or a comma", t.NeedID)
	}
	return t, true
}

// field is one field of a one-line need: its text with escapes read, and
// the raw bytes it came from (starting at byte start of the line).
type field struct {
	text, raw string
	start     int
}

// splitFields splits line[from:to] at sep as sphinx-codelinks does: in a
// string field a backslash escapes sep, '[', ']' and itself (before any
// other character it stays); in a list field (lists holds their indexes)
// backslashes stay and sep inside brackets does not split.
func splitFields(line []byte, from, to int, sep rune, lists []int) []field {
	var out []field
	var cur []rune
	start := from
	esc, inList := false, false
	s := string(line[from:to])
	for i, r := range s {
		isList := slices.Contains(lists, len(out))
		if esc {
			if r != sep && r != '[' && r != ']' && r != '\\' {
				cur = append(cur, '\\')
			}
			cur = append(cur, r)
			esc = false
			continue
		}
		if r == '\\' && !isList {
			esc = true
			continue
		}
		if r == sep && !(isList && inList) {
			out = append(out, field{text: string(cur), raw: string(line[start : from+i]), start: start})
			cur, start = nil, from+i+len(string(sep))
			continue
		}
		if isList {
			switch r {
			case '[':
				inList = true
			case ']':
				inList = false
			}
		}
		cur = append(cur, r)
	}
	if esc {
		cur = append(cur, '\\')
	}
	return append(out, field{text: string(cur), raw: string(line[start:to]), start: start})
}
