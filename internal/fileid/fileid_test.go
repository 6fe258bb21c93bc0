package fileid

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A rewrite shows in the ID, even one of the same size that sets the
// modification time back (its change time moves on where the system has
// one), and an ID is trusted only once the file is older than the racy
// window, on the later of its two times.
func TestIDAndRacyWindow(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a.c")
	old := time.Now().Add(-time.Hour)
	if err := os.WriteFile(name, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(name, old, old)
	of := func() ID {
		st, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		return Of(st)
	}
	a := of()
	if a.Size != 3 || a.Mtime != old.UnixNano() {
		t.Fatalf("ID %+v", a)
	}
	if a.Ctime != 0 && a.Settled(time.Now()) {
		t.Error("a file whose change time is now is settled")
	}
	if !a.Settled(time.Now().Add(RacyWindow + time.Second)) {
		t.Error("a file older than the racy window is not settled")
	}
	if a.String() != of().String() {
		t.Error("the same file gives two IDs")
	}
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(name, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(name, old, old)
	if b := of(); b.Ctime != 0 && b == a {
		t.Error("a file rewritten with its modification time set back kept its ID")
	}
	os.Chmod(name, 0o600)
	if c := of(); c.Mode == a.Mode {
		t.Error("a chmod left the mode in the ID as it was")
	}
}
