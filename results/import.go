package results

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// ImportOptions tunes Import.
type ImportOptions struct {
	// IDPattern is the tree's ID pattern; nil means the default one.
	IDPattern *regexp.Regexp
	// Files resolves the outcomes' positions (their results files).
	Files *source.FileSet
}

// Import writes outcomes (as Outcomes makes them) as `.. outcome::`
// directives, in the order given, for `seg import`: the title is the case
// name, the options :id:, :confirms:, :witnesses:, :result:, :config:, and
// the body says where the result was read and quotes the case's message in
// a literal block (which holds no nodes, whatever the message says). The
// same outcomes give the same bytes.
//
// A results outcome's ID ("<path>#<n>") does not fit an ID pattern, so the
// written ID is ImportID's. It is an error when two outcomes would get the
// same written ID or one fits no ID pattern form.
func Import(w io.Writer, outcomes []parser.Node, opts ImportOptions) error {
	rx := opts.IDPattern
	if rx == nil {
		rx = regexp.MustCompile(parser.DefaultIDPattern)
	}
	ids := make([]string, len(outcomes))
	seen := map[string]string{}
	for i := range outcomes {
		id, err := ImportID(outcomes[i].ID, rx)
		if err != nil {
			return err
		}
		if prev, ok := seen[id]; ok {
			return fmt.Errorf("outcomes %q and %q would both be written with ID %q", prev, outcomes[i].ID, id)
		}
		seen[id] = outcomes[i].ID
		ids[i] = id
	}

	b := bufio.NewWriter(w)
	b.WriteString(".. Outcomes imported from test results by seg import. Import again rather than edit.\n")
	for i := range outcomes {
		n := &outcomes[i]
		b.WriteString("\n.. outcome::")
		if t := oneLine(n.Title); t != "" {
			b.WriteString(" " + t)
		}
		b.WriteString("\n")
		fmt.Fprintf(b, "   :id: %s\n", ids[i])
		for _, name := range []string{"confirms", "witnesses", "result", "config"} {
			if o := n.Option(name); o != nil && oneLine(o.Value) != "" {
				fmt.Fprintf(b, "   :%s: %s\n", name, oneLine(o.Value))
			}
		}
		pos := opts.Files.Position(n.Pos)
		from := "Imported from " + literal(pos.Filename)
		if pos.IsValid() {
			from += ", line " + strconv.Itoa(pos.Line)
		}
		if msg := oneLine(n.Body); msg != "" {
			fmt.Fprintf(b, "\n   %s::\n\n      %s\n", from, msg)
		} else {
			fmt.Fprintf(b, "\n   %s.\n", from)
		}
	}
	return b.Flush()
}

// ImportID is the ID `seg import` writes for the outcome whose ID is id.
// An outcome made from results ("<path>#<n>") becomes RUN-<path>-<n> with
// every character the default ID pattern does not take turned into '-'
// ("build/junit.xml#3" → "RUN-build-junit.xml-3"); when rx rejects that,
// the upper-case form with '.' and '_' turned into '-' as well
// ("RUN-BUILD-JUNIT-XML-3"). Any other ID is kept as it is. The ID is stable
// for the same results file and case order.
func ImportID(id string, rx *regexp.Regexp) (string, error) {
	cands := []string{id}
	if i := strings.LastIndexByte(id, '#'); i >= 0 {
		base := "RUN-" + sanitize(id[:i]) + "-" + sanitize(id[i+1:])
		upper := strings.Map(func(r rune) rune {
			if r == '.' || r == '_' {
				return '-'
			}
			return r
		}, strings.ToUpper(base))
		cands = []string{base, upper}
	}
	for _, c := range cands {
		if rx.MatchString(c) {
			return c, nil
		}
	}
	return "", fmt.Errorf("outcome %q: no ID derived from it (%s) fits the ID pattern %s",
		id, strings.Join(cands, ", "), rx)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '-'
	}, s)
}

// oneLine makes s fit on one line of RST: control characters become spaces
// and the ends are trimmed.
func oneLine(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s))
}

// literal quotes a path as RST inline literal text.
func literal(s string) string {
	s = oneLine(s)
	if s == "" || strings.Contains(s, "``") || strings.HasSuffix(s, "`") {
		return strconv.Quote(s)
	}
	return "``" + s + "``"
}
