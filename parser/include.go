package parser

import (
	"bytes"
	"strings"

	"github.com/seg-trace/seg/source"
)

// Include is one ".. include::" directive of a file, as docutils reads
// it: where it is, the path it names and the options that choose what of
// the file is included and how (package check follows it).
type Include struct {
	// Start and End are the byte offsets of the path argument (of the
	// directive's first line when it has no argument).
	Start, End int
	// Path is the argument as written, its lines joined.
	Path string
	// Literal: :literal: or :code: include the file as a literal block,
	// not parsed as RST; Parser is :parser:'s value ("" when not given).
	Literal bool
	Parser  string
	// Encoding is :encoding:'s value ("" when not given).
	Encoding string
	// StartLine and EndLine are :start-line: and :end-line: as written
	// ("" when not given); StartAfter and EndBefore the texts of
	// :start-after: and :end-before:, with Has* set when given.
	StartLine, EndLine       string
	StartAfter, EndBefore    string
	HasStartAfter, HasEnding bool
}

// Includes finds the ".. include::" directives of a file's text where
// docutils runs them: not in a comment, a literal block, or the content
// of a directive whose content is not RST. src is the file's UTF-8 text
// (a leading BOM dropped).
func Includes(src []byte, cfg *Config) []Include {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	src = bytes.TrimPrefix(src, bom)
	if !mayInclude(src) {
		return nil
	}
	fs := source.NewFileSet()
	sf := fs.Add("include-scan", 0, source.Docutils)
	s := newScanner(sf, src, cfg)
	defer s.release()
	if li, _ := s.tooLong(); li >= 0 {
		return nil // docutils reads nothing of the file
	}
	var out []Include
	s.incl = &out
	s.run()
	return out
}

// mayInclude reports whether src may hold an include directive: the
// name in any case, one optional space, then "::" (docutils' directive
// syntax takes ".. include ::" too). Only such texts are scanned.
func mayInclude(src []byte) bool {
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte("::"))
		if k < 0 {
			return false
		}
		k += i
		n := k
		if n > 0 && src[n-1] == ' ' {
			n--
		}
		if n >= len("include") && bytes.EqualFold(src[n-len("include"):n], []byte("include")) {
			return true
		}
		i = k + 2
	}
}

// include records the include directive of block d.
func (s *scanner) include(d block) {
	h := s.split(d, true, nil)
	if h.bad != nil {
		return // docutils rejects the directive
	}
	inc := Include{Path: strings.TrimSpace(s.title(d, h))}
	if h.argLo < h.optLo {
		inc.Start = s.textAt(d, h.argLo)
		inc.End = int(s.lines[h.optLo-1].end)
	} else {
		inc.Start, inc.End = int(s.lines[d.lo].start), int(s.lines[d.lo].end)
	}
	for _, f := range h.fields {
		t := s.src[f.start:s.lines[f.lo].end]
		nameEnd, valStart, _ := fieldMarker(t)
		name := strings.ToLower(string(unescape(t[1:nameEnd])))
		var val []string
		if valStart < len(t) {
			val = append(val, string(t[valStart:]))
		}
		for j := f.lo + 1; j < f.hi; j++ {
			if ln := s.lines[j]; ln.ind >= 0 {
				val = append(val, s.str[ln.cs:ln.end])
			}
		}
		v := strings.TrimSpace(strings.Join(val, " "))
		switch name {
		case "literal", "code":
			inc.Literal = true
		case "parser":
			inc.Parser = v
		case "encoding":
			inc.Encoding = v
		case "start-line":
			inc.StartLine = v
		case "end-line":
			inc.EndLine = v
		case "start-after":
			inc.StartAfter, inc.HasStartAfter = v, true
		case "end-before":
			inc.EndBefore, inc.HasEnding = v, true
		}
	}
	if inc.Path != "" {
		*s.incl = append(*s.incl, inc)
	}
}
