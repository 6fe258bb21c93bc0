package pins

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/source"
)

func isLink(name string) bool {
	switch name {
	case "refines", "verifies", "implements", "confirms", "witnesses", "excuses", "blocks":
		return true
	}
	return false
}

// read reads src as seg.lock and returns its pins as text and its
// diagnostics as "line:col code message".
func read(t *testing.T, src string) (pins []string, diags []string) {
	t.Helper()
	fset := source.NewFileSet()
	sf := fset.Add(FileName, len(src), source.Newlines)
	sf.SetSource([]byte(src), false)
	lock := Read(sf, []byte(src), isLink)
	for _, p := range lock.Pins {
		pos := fset.Position(p.Pos)
		pins = append(pins, fmt.Sprintf("%d: %s %016x", pos.Line, p.Link, p.Revision))
	}
	for _, d := range lock.Diagnostics {
		pos := fset.Position(d.Span.Start)
		diags = append(diags, fmt.Sprintf("%d:%d %s %s", pos.Line, pos.Column, d.Code.Name, d.Message))
	}
	if lock.Refused() != (len(diags) > 0) {
		t.Errorf("Refused() = %v with %d diagnostics", lock.Refused(), len(diags))
	}
	return pins, diags
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		pins      []string
		diags     []string
	}{
		{
			name: "written by seg",
			src:  Header + "A verifies R 0123456789abcdef\nB implements R fedcba9876543210\n",
			pins: []string{"3: A verifies R 0123456789abcdef", "4: B implements R fedcba9876543210"},
		},
		{
			name: "blanks, tabs, comments, CRLF, upper case",
			src:  "\r\n  # a comment\r\n\tA \t verifies  R   0123456789ABCDEF  \r\n\n",
			pins: []string{"3: A verifies R 0123456789abcdef"},
		},
		{
			name: "no line end at the end",
			src:  "A blocks B 0000000000000001",
			pins: []string{"1: A blocks B 0000000000000001"},
		},
		{
			name:  "too few fields: at the end of the line",
			src:   "A verifies R\n",
			diags: []string{"1:13 invalid-pin a pin has four fields, FROM LINK TO REVISION; this line has 3"},
		},
		{
			name:  "a trailing comment is a fifth field",
			src:   "A verifies R 0123456789abcdef # ok\n",
			diags: []string{"1:31 invalid-pin a pin has four fields, FROM LINK TO REVISION; this line has 6 (a comment must be a line of its own)"},
		},
		{
			name:  "unknown link",
			src:   "ok\n  A satisfies R 0123456789abcdef\n",
			diags: []string{"1:3 invalid-pin a pin has four fields, FROM LINK TO REVISION; this line has 1", `2:5 invalid-pin unknown link "satisfies"`},
		},
		{
			name: "bad revisions",
			src:  "A verifies R 0123456789abcde\nA verifies S 0123456789abcdefa\nA verifies T 0123456789abcdeg\nA verifies U 0x23456789abcdef\nA verifies V +123456789abcdef\n",
			diags: []string{
				`1:14 invalid-pin invalid revision "0123456789abcde" (want 16 hex digits)`,
				`2:14 invalid-pin invalid revision "0123456789abcdefa" (want 16 hex digits)`,
				`3:14 invalid-pin invalid revision "0123456789abcdeg" (want 16 hex digits)`,
				`4:14 invalid-pin invalid revision "0x23456789abcdef" (want 16 hex digits)`,
				`5:14 invalid-pin invalid revision "+123456789abcdef" (want 16 hex digits)`,
			},
		},
		{
			name: "duplicates: every line after the first, all kept",
			src:  "A verifies R 0000000000000001\nB verifies R 0000000000000001\n  A verifies R 0000000000000002\nA verifies R 0000000000000001\n",
			pins: []string{"1: A verifies R 0000000000000001", "2: B verifies R 0000000000000001", "3: A verifies R 0000000000000002", "4: A verifies R 0000000000000001"},
			diags: []string{
				"3:3 duplicate-pin link A verifies R is pinned again",
				"4:1 duplicate-pin link A verifies R is pinned again",
			},
		},
		{
			name: "duplicates in a sorted file, and once the order breaks",
			src:  "A verifies R 0000000000000001\nA verifies R 0000000000000002\nB verifies R 0000000000000001\nC verifies R 0000000000000001\nB verifies R 0000000000000003\nD verifies R 0000000000000001\nA verifies R 0000000000000004\n",
			pins: []string{"1: A verifies R 0000000000000001", "2: A verifies R 0000000000000002", "3: B verifies R 0000000000000001", "4: C verifies R 0000000000000001", "5: B verifies R 0000000000000003", "6: D verifies R 0000000000000001", "7: A verifies R 0000000000000004"},
			diags: []string{
				"2:1 duplicate-pin link A verifies R is pinned again",
				"5:1 duplicate-pin link B verifies R is pinned again",
				"7:1 duplicate-pin link A verifies R is pinned again",
			},
		},
		{
			name: "a bad line does not hide the good ones",
			src:  "A verifies R nothex\nB verifies R 0000000000000003\n",
			pins: []string{"2: B verifies R 0000000000000003"},
			diags: []string{
				`1:14 invalid-pin invalid revision "nothex" (want 16 hex digits)`,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pins, diags := read(t, tc.src)
			if diff := cmp.Diff(tc.pins, pins); diff != "" {
				t.Errorf("pins (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.diags, diags); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// Write sorts by FROM, LINK, TO in byte order, writes one line a link,
// and reads back to the same pins.
func TestWrite(t *testing.T) {
	in := []Pin{
		{Link: Link{"b", "verifies", "R"}, Revision: 2},
		{Link: Link{"B", "verifies", "R"}, Revision: 0xabcdef},
		{Link: Link{"A", "witnesses", "I"}, Revision: 3},
		{Link: Link{"A", "confirms", "T"}, Revision: 4},
		{Link: Link{"A", "confirms", "S"}, Revision: 5},
		{Link: Link{"A", "confirms", "S"}, Revision: 6}, // one line a link
	}
	var out bytes.Buffer
	if err := Write(&out, in); err != nil {
		t.Fatal(err)
	}
	want := Header +
		"A confirms S 0000000000000005\n" +
		"A confirms T 0000000000000004\n" +
		"A witnesses I 0000000000000003\n" +
		"B verifies R 0000000000abcdef\n" +
		"b verifies R 0000000000000002\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	pins, diags := read(t, out.String())
	if len(diags) > 0 || len(pins) != 5 {
		t.Errorf("read back: %q, %q", pins, diags)
	}
	// The order of the input does not matter.
	var again bytes.Buffer
	rev := append([]Pin(nil), in[:5]...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	Write(&again, append(rev, in[5]))
	if again.String() != out.String() {
		t.Errorf("another order wrote:\n%s", again.String())
	}
}
