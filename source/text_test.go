package source

import "testing"

// Text reads a file's text again at every call and keeps none of it,
// where Source keeps what it read; a kept text (Source's, SetSource's)
// is what Text returns, without reading.
func TestTextKeepsNothing(t *testing.T) {
	var fs FileSet
	f := fs.Add("a.rst", 3, Docutils)
	reads := 0
	f.SetReader(func() ([]byte, error) { reads++; return []byte("abc"), nil })
	for i := range 2 {
		if got := string(f.Text()); got != "abc" {
			t.Fatalf("Text() = %q, want abc", got)
		}
		if reads != i+1 {
			t.Fatalf("after %d calls of Text, %d reads; want %d", i+1, reads, i+1)
		}
	}
	if f.src != nil || f.done {
		t.Fatal("Text kept the text it read")
	}
	f.Source()
	f.Text()
	if reads != 3 {
		t.Errorf("Text after Source read the file again (%d reads, want 3)", reads)
	}
	g := fs.Add("b.rst", 2, Docutils)
	g.SetSource([]byte("xy"), false)
	g.SetReader(func() ([]byte, error) { t.Error("a set text read again"); return nil, nil })
	if got := string(g.Text()); got != "xy" {
		t.Errorf("Text() of a set text = %q, want xy", got)
	}
}
