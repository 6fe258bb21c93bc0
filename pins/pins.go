// Package pins reads and writes seg.lock, the file at a tree's root that
// records, for each reviewed link, the revision its target had when the
// link was reviewed (docs/revisions.md). The documents stay plain RST; a
// review changes seg.lock alone, and seg writes it sorted so that its diff
// shows exactly what a review changed.
//
// A line is FROM LINK TO REVISION, fields separated by runs of spaces or
// tabs; a line whose first non-blank character is # is a comment; blank
// lines are ignored; LF and CRLF line ends are both read.
package pins

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// FileName is the lock file seg reads at a tree's root.
const FileName = "seg.lock"

// Header is the comment seg writes at the top of seg.lock.
const Header = "# seg.lock: the revision of each link's target when the link was reviewed.\n" +
	"# Written by seg review and seg import; one line a link: FROM LINK TO REVISION\n"

// The diagnostic codes of reading seg.lock.
var (
	CodeInvalidPin   = diag.NewError("invalid-pin", "a seg.lock line that cannot be read")
	CodeDuplicatePin = diag.NewError("duplicate-pin", "two pins for one link")
)

// Link names one link: the node it leaves, the link option (or
// sphinx-needs link type) it is written in, and its target.
type Link struct {
	From, Link, To string
}

func (l Link) String() string { return l.From + " " + l.Link + " " + l.To }

// Compare orders links by FROM, LINK, TO, in byte order: seg.lock's order.
func (l Link) Compare(m Link) int {
	return cmp.Or(strings.Compare(l.From, m.From), strings.Compare(l.Link, m.Link), strings.Compare(l.To, m.To))
}

// Pin is one line of seg.lock.
type Pin struct {
	Link
	Revision uint64
	// Pos is the line's first byte.
	Pos source.Pos
}

// Lock is what seg.lock holds.
type Lock struct {
	// Pins are the lines that could be read, in file order.
	Pins []Pin
	// Diagnostics are the invalid-pin and duplicate-pin errors.
	Diagnostics diag.List
}

// Refused reports whether seg review must refuse to rewrite the file: a
// line a person wrote would be dropped or changed silently.
func (l *Lock) Refused() bool { return len(l.Diagnostics) > 0 }

// Read reads seg.lock, the file sf whose bytes are src. isLink says
// whether a name is a link option of the tree (a line naming another is
// invalid-pin).
func Read(sf *source.File, src []byte, isLink func(string) bool) *Lock {
	lock := &Lock{}
	sf.SetLines(source.LineStarts(src, source.Newlines))
	lines := sf.Lines()
	// One string for the whole file: every field is a slice of it, and a
	// large seg.lock (a pin a link) makes no allocation a line.
	text := string(src)
	lock.Pins = make([]Pin, 0, len(lines))
	seen := duplicates{}
	var fieldBuf [5]string
	var offBuf [5]int
	for li, start := range lines {
		end := len(text)
		if li+1 < len(lines) {
			end = int(lines[li+1])
		}
		line := strings.TrimRight(text[start:end], "\r\n")
		fields, offs := split(line, fieldBuf[:0], offBuf[:0])
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		bad := func(i int, format string, args ...any) {
			// A missing field is wanted right after the last one:
			// trailing blanks are not part of the line.
			last := len(fields) - 1
			at := int(start) + offs[last] + len(fields[last])
			if i < len(offs) {
				at = int(start) + offs[i]
			}
			lock.Diagnostics = append(lock.Diagnostics, diag.Diagnostic{
				Code:    CodeInvalidPin,
				Message: fmt.Sprintf(format, args...),
				Detail:  "A seg.lock line is FROM LINK TO REVISION: two IDs, a link option's name and 16 hex digits. Fix the line or delete it (seg review --accept pins the link again); seg review refuses to rewrite seg.lock until then.",
				Span:    source.At(sf.Pos(at)),
			})
		}
		// The first field that is wrong, left to right, is the one shown.
		rev, ok := uint64(0), false
		if len(fields) >= 4 {
			rev, ok = parseRevision(fields[3])
		}
		switch {
		case len(fields) >= 2 && !isLink(fields[1]):
			bad(1, "unknown link %q", fields[1])
			continue
		case len(fields) < 4:
			bad(len(fields), "a pin has four fields, FROM LINK TO REVISION; this line has %d", len(fields))
			continue
		case !ok:
			bad(3, "invalid revision %q (want 16 hex digits)", fields[3])
			continue
		case len(fields) > 4:
			bad(4, "a pin has four fields, FROM LINK TO REVISION; this line has %d (a comment must be a line of its own)", len(fields))
			continue
		}
		p := Pin{Link: Link{fields[0], fields[1], fields[2]}, Revision: rev, Pos: sf.Pos(int(start))}
		if seen.again(lock.Pins, p.Link) {
			lock.Diagnostics = append(lock.Diagnostics, diag.Diagnostic{
				Code:    CodeDuplicatePin,
				Message: fmt.Sprintf("link %s is pinned again", p.Link),
				Detail:  "A link has one pin. The link counts as current only if every one of its lines names its target's current revision; delete the extra lines.",
				Span:    source.At(sf.Pos(int(start) + offs[0])),
			})
		}
		lock.Pins = append(lock.Pins, p)
	}
	return lock
}

// duplicates finds links pinned more than once. seg writes seg.lock
// sorted, where a repeated link is the line before's; only a file edited
// out of order needs a set of every link seen (a large tree pins
// hundreds of thousands of links, and the set cost a third of reading).
type duplicates struct {
	seen map[Link]bool // nil while the links read are in order
}

// again reports whether l is among the links of pins, the lines read
// before it.
func (d *duplicates) again(pins []Pin, l Link) bool {
	if d.seen == nil {
		if len(pins) == 0 {
			return false
		}
		switch c := pins[len(pins)-1].Link.Compare(l); {
		case c == 0:
			return true
		case c < 0:
			return false
		}
		d.seen = make(map[Link]bool, len(pins))
		for _, p := range pins {
			d.seen[p.Link] = true
		}
	}
	if d.seen[l] {
		return true
	}
	d.seen[l] = true
	return false
}

// split cuts a line into fields at runs of spaces and tabs, with each
// field's offset in the line, appended to fields and offs.
func split(line string, fields []string, offs []int) ([]string, []int) {
	for i := 0; i < len(line); {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if j > i {
			fields = append(fields, line[i:j])
			offs = append(offs, i)
		}
		i = j
	}
	return fields, offs
}

func parseRevision(s string) (uint64, bool) {
	if len(s) != 16 {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 16, 64)
	return v, err == nil
}

// Write writes pins as seg.lock: the header, then one line a pin sorted by
// FROM, LINK, TO, with LF line ends and nothing else. Pins for one link
// are written once (the first).
func Write(w io.Writer, pins []Pin) error {
	sorted := slices.Clone(pins)
	slices.SortStableFunc(sorted, func(a, b Pin) int { return a.Link.Compare(b.Link) })
	bw := bufio.NewWriter(w)
	bw.WriteString(Header)
	for i, p := range sorted {
		if i > 0 && sorted[i-1].Link == p.Link {
			continue
		}
		fmt.Fprintf(bw, "%s %016x\n", p.Link, p.Revision)
	}
	return bw.Flush()
}

// Merge is old with the pins of add laid over it: one pin a link, add's
// where both have one, sorted as seg.lock is.
func Merge(old, add []Pin) []Pin {
	byLink := map[Link]Pin{}
	for _, p := range old {
		if _, ok := byLink[p.Link]; !ok {
			byLink[p.Link] = Pin{Link: p.Link, Revision: p.Revision}
		}
	}
	for _, p := range add {
		byLink[p.Link] = Pin{Link: p.Link, Revision: p.Revision}
	}
	out := make([]Pin, 0, len(byLink))
	for _, p := range byLink {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Pin) int { return a.Link.Compare(b.Link) })
	return out
}
