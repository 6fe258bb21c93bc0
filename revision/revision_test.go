package revision

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// The canonical document docs/revisions.md shows is the one the Writer
// writes for its fields, and the fields' order and indentation do not
// matter.
func TestDocumentAsDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/revisions.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "## The revision of a node\n")
	_, after, ok2 := strings.Cut(after, "```text\n")
	want, _, ok3 := strings.Cut(after, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/revisions.md has no canonical document under \"The revision of a node\"")
	}
	var w Writer
	w.Start("test", "OTHER", "a document before") // the Writer starts afresh
	w.Option("z", "z")
	w.Body("text")
	w.Start("requirement", "BRK-SREQ-010", "Pressure follows the pedal map")
	w.Option("status", "approved")
	w.Body("\n     The pressure controller shall map pedal travel (0-100 %) to a pressure \t\n" +
		"     request using the calibrated pedal map.\n\n\n")
	if w.String() != want {
		t.Errorf("the Writer wrote\n%s\ndocs/revisions.md shows\n%s", w.String(), want)
	}
	sum := sha256.Sum256([]byte(want))
	if r := binary.BigEndian.Uint64(sum[:8]); w.Revision() != r || Of(want) != r {
		t.Errorf("Revision() = %x, Of = %x, want the first 64 bits of the SHA-256, %x", w.Revision(), Of(want), r)
	}
}

// The body keeps one blank line for each run, drops blank lines at
// either end and trailing white space, and removes the common
// indentation only; a field's line break stays on its line as \n.
func TestBody(t *testing.T) {
	var w Writer
	w.Start("outcome", "O\n1", "two\r\nlines")
	w.Option("note", "a\rb")
	w.Body("\n\n    one\t \n      two\ta\n\n\n    three\n  \n")
	want := "seg-revision 1\nkind outcome\nid O\\n1\ntitle two\\nlines\noption note a\\nb\nbody\none\n  two\ta\n\nthree\n"
	if w.String() != want {
		t.Errorf("got\n%q\nwant\n%q", w.String(), want)
	}
	w.Start("outcome", "O-2", "")
	w.Body("")
	if want := "seg-revision 1\nkind outcome\nid O-2\ntitle \nbody\n"; w.String() != want {
		t.Errorf("an empty node: got %q, want %q", w.String(), want)
	}
}

// Options are sorted in the byte order of their lines, "option NAME
// VALUE\n", whatever order they come in: compareLines is that order
// without making the lines.
func TestOptionOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	parts := []string{"", "a", "a b", "ab", "a-b", "b", " ", "é", "a\tb", "z"}
	for range 2000 {
		var opts [][2]string
		for range 1 + r.IntN(5) {
			opts = append(opts, [2]string{parts[r.IntN(len(parts))], parts[r.IntN(len(parts))]})
		}
		var lines []string
		for _, o := range opts {
			lines = append(lines, "option "+o[0]+" "+o[1]+"\n")
		}
		slices.Sort(lines)
		want := "seg-revision 1\nkind test\nid T\ntitle \n" + strings.Join(lines, "") + "body\n"
		var w Writer
		w.Start("test", "T", "")
		for _, i := range r.Perm(len(opts)) {
			w.Option(opts[i][0], opts[i][1])
		}
		w.Body("")
		if w.String() != want {
			t.Fatalf("options %q: got\n%s\nwant\n%s", opts, w.String(), want)
		}
	}
}

// An implementation's document lists every file matched once, by path,
// then each entry that matched nothing, in the order written; its
// revision is the document's.
func TestImplementation(t *testing.T) {
	entries := []Source{
		{Entry: "src/b/**", Files: []File{{"src/b/x.c", "bb"}, {"src/a.c", "aa"}}},
		{Entry: "gone/*.c"},
		{Entry: "src/a.c", Files: []File{{"src/a.c", "aa"}}},
		{Entry: "also\ngone"},
	}
	doc := Implementation(0x12d208fd5b36dbc5, entries)
	want := "seg-revision 1 implementation\ntext 12d208fd5b36dbc5\n" +
		"source src/a.c aa\nsource src/b/x.c bb\nsource gone/*.c missing\nsource also\\ngone missing\n"
	if doc != want {
		t.Errorf("got\n%s\nwant\n%s", doc, want)
	}
	if OfImplementation(0x12d208fd5b36dbc5, entries) != Of(want) {
		t.Error("OfImplementation is not the revision of the document Implementation writes")
	}
	// One entry's files are the resolver's, sorted already.
	one := []Source{{Entry: "src", Files: []File{{"src/a.c", "aa"}, {"src/b.c", "bb"}}}}
	if got := Implementation(1, one); got != "seg-revision 1 implementation\ntext 0000000000000001\nsource src/a.c aa\nsource src/b.c bb\n" {
		t.Errorf("one entry: got %q", got)
	}
}

// String writes 16 lower-case hex digits, as seg.lock does.
func TestString(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for _, v := range []uint64{0, 1, 0xabcdef0123456789, ^uint64(0), r.Uint64(), r.Uint64()} {
		if got, want := String(v), fmt.Sprintf("%016x", v); got != want {
			t.Errorf("String(%#x) = %s, want %s", v, got, want)
		}
	}
}
