package source

import "testing"

// A forked set resolves the positions of the files it shares with its
// parent alike; a file replaced or added in one set afterwards is not in
// the other.
func TestForkAndReplace(t *testing.T) {
	s := NewFileSet()
	a := s.Add("a.rst", 6, Docutils)
	a.SetSource([]byte("one\ntw"), true)
	b := s.Add("b.rst", 2, Docutils)
	b.SetSource([]byte("x\n"), true)
	pa := a.Pos(5)

	old := s.Fork()
	a2 := s.Replace(a, 8)
	a2.SetSource([]byte("1\n2\n3\nfo"), true)
	if a2.Index() != a.Index() || a2.Name() != "a.rst" {
		t.Fatalf("replaced file: index %d name %q", a2.Index(), a2.Name())
	}
	if got := old.Position(pa).String(); got != "a.rst:2:2" {
		t.Errorf("the fork resolves %s, want a.rst:2:2 (the old text)", got)
	}
	if got := s.Position(pa).String(); got != "a.rst:3:2" {
		t.Errorf("the set resolves %s, want a.rst:3:2 (the new text)", got)
	}
	if old.File(b.Pos(0)) != b || s.File(b.Pos(0)) != b {
		t.Error("an untouched file is not shared")
	}
	c := old.Add("seg.lock", 0, Newlines)
	if len(s.Files()) != 2 || len(old.Files()) != 3 || c.Index() != 2 {
		t.Errorf("a file added to the fork: %d files in the set, %d in the fork", len(s.Files()), len(old.Files()))
	}
	defer func() {
		if recover() == nil {
			t.Error("replacing a file of another set did not panic")
		}
	}()
	s.Replace(c, 0)
}

// A file kept from one fork in the next resolves the positions made into
// it alike; only a file at the next index can be kept.
func TestKeep(t *testing.T) {
	base := NewFileSet()
	base.Add("a.rst", 0, Docutils)
	run1 := base.Fork()
	r := run1.Add("results.xml", 0, Newlines)
	p := r.Mark(7, 3)
	run2 := base.Fork()
	run2.Keep(r)
	if got := run2.Position(p).String(); got != "results.xml:7:3" {
		t.Errorf("the kept file resolves %s, want results.xml:7:3", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("keeping a file at another index did not panic")
		}
	}()
	base.Fork().Keep(base.Files()[0])
}
