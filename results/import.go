package results

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
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
	// Written, when set, is called for each outcome written, with the ID
	// it is written under: the hook for pinning its confirms and
	// witnesses links in seg.lock (revisions.md: seg import --output pins
	// them).
	Written func(id string, n *parser.Node)
}

// Import writes outcomes (as Outcomes makes them) as `.. outcome::`
// directives, in the order given, for `seg import`: the title is the case
// name, the options :id:, :confirms:, :witnesses:, :result:, :config:,
// :date: (the day the file gives for the run, when it gives one), and the
// body says where the result was read and quotes the case's message in a
// literal block (which holds no nodes, whatever the message says). The same
// outcomes give the same bytes.
//
// A results outcome's ID ("<path>::<case>") does not fit an ID pattern, so
// the written ID is ImportID's. It is an error when two outcomes would get
// the same written ID or one fits no ID pattern form.
//
// The written outcomes are ordinary outcomes: a flaky rerun (rerun-of)
// is not marked, so each run counts, as under the default rerun policy.
// Pins for their confirms and witnesses links in seg.lock are the caller's
// to write (ImportOptions.Written).
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
		for _, name := range []string{"confirms", "witnesses", "result", "config", OptionDate} {
			if o := n.Option(name); o != nil && oneLine(o.Value) != "" {
				fmt.Fprintf(b, "   :%s: %s\n", name, oneLine(o.Value))
			}
		}
		if opts.Written != nil {
			opts.Written(ids[i], n)
		}
		pos := opts.Files.Position(n.Pos)
		from := "Imported from " + literal(pos.Filename)
		if pos.IsValid() {
			from += ", line " + strconv.Itoa(pos.Line)
		}
		if msg := messageLines(n.Body); len(msg) > 0 {
			fmt.Fprintf(b, "\n   %s::\n\n", from)
			for _, l := range msg {
				fmt.Fprintf(b, "      %s\n", l)
			}
		} else {
			fmt.Fprintf(b, "\n   %s.\n", from)
		}
	}
	return b.Flush()
}

// ImportID is the ID `seg import` writes for the outcome whose ID is id.
// An outcome made from results ("<path>::<case>[#<k>]") becomes
// RUN-<path>--<case>[-<k>]-<hash>: every character the default ID pattern
// does not take turned into '-', and the first 8 hex digits of the
// SHA-256 of id, so two outcomes never share a written ID however their
// names were simplified ("build/junit.xml::pkg.TestA/sub#2" →
// "RUN-build-junit.xml--pkg.TestA-sub-2-1f0c…"). When rx rejects that,
// the upper-case form with '.' and '_' turned into '-' as well. Any other
// ID is kept as it is. The ID depends on id alone: it does not move when
// other cases are added, removed or reordered.
func ImportID(id string, rx *regexp.Regexp) (string, error) {
	cands := []string{id}
	if path, name, ok := strings.Cut(id, "::"); ok {
		run := ""
		if i := strings.LastIndexByte(name, '#'); i >= 0 && endsInRun(name) {
			name, run = name[:i], "-"+name[i+1:]
		}
		sum := sha256.Sum256([]byte(id))
		base := "RUN-" + sanitize(path) + "--" + sanitize(name) + run + "-" + hex.EncodeToString(sum[:4])
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

// messageLines is a message as lines of a literal block: control
// characters made spaces, blank lines dropped.
func messageLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = oneLine(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// literal quotes a path as RST inline literal text.
func literal(s string) string {
	s = oneLine(s)
	if s == "" || strings.Contains(s, "``") || strings.HasSuffix(s, "`") {
		return strconv.Quote(s)
	}
	return "``" + s + "``"
}
