package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seg-trace/seg/internal/fileid"
)

func stat(t *testing.T, name string) os.FileInfo {
	t.Helper()
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func hexSum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func TestSums(t *testing.T) {
	base, tree := t.TempDir(), t.TempDir()
	open := func() *Sums { return Open(base, "test", nil).Sums() }
	name := filepath.Join(tree, "loop.c")
	write := func(text string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	write("one", old)
	// The racy window is read on the change time too (package fileid),
	// which setting the modification time back moves to now: the clock
	// is an hour ahead, so that the files written here count as settled.
	clock = func() time.Time { return time.Now().Add(time.Hour) }
	defer func() { clock = time.Now }()

	s := open()
	if got, ok := s.Sum(name); !ok || got != hexSum("one") {
		t.Fatalf("Sum = %q, %v", got, ok)
	}
	s.Save()
	data, err := os.ReadFile(filepath.Join(base, subdir, sumsFile))
	if err != nil || !strings.Contains(string(data), hexSum("one")) {
		t.Fatalf("the sum was not saved: %q, %v", data, err)
	}

	// A new run knows the file by its identity and reads nothing.
	if got, _ := open().Sum(name); got != hexSum("one") {
		t.Errorf("the remembered sum was not used: %q", got)
	}
	// A file rewritten in place, same size, its modification time set
	// back to what it was: the change time, in the identity, tells.
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("two"), 0)
	f.Close()
	os.Chtimes(name, old, old)
	if got, _ := open().Sum(name); got != hexSum("two") && fileid.Of(stat(t, name)).Ctime != 0 {
		t.Errorf("a file rewritten behind its modification time gave the remembered sum: %q", got)
	}

	// A change of time or size is seen, and so is a file replaced by
	// another with the same size and time (another inode).
	write("three", old)
	if got, _ := open().Sum(name); got != hexSum("three") {
		t.Errorf("a changed size gave %q", got)
	}
	tmp := filepath.Join(tree, "new")
	os.WriteFile(tmp, []byte("four!"), 0o644)
	os.Chtimes(tmp, old, old)
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
	if got, _ := open().Sum(name); got != hexSum("four!") {
		t.Errorf("a replaced file gave %q", got)
	}

	// A file modified just now is hashed but not remembered: a second
	// write in the same tick would leave its identity unchanged.
	clock = time.Now
	fresh := open()
	write("five", time.Now())
	if got, _ := fresh.Sum(name); got != hexSum("five") {
		t.Errorf("fresh file gave %q", got)
	}
	if fresh.dirty {
		t.Error("a file modified just now was remembered")
	}

	// A file that cannot be read has no sum.
	if _, ok := open().Sum(filepath.Join(tree, "missing.c")); ok {
		t.Error("a missing file has a sum")
	}
}
