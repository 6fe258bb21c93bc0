//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Only regular files are read, through links; a FIFO (named or behind a
// link), a folder, a link loop or a dangling link fails at once, without
// waiting for a writer.
func TestReadOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.rst")
	if err := os.WriteFile(file, []byte("text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{"link.rst": "a.rst", "link-fifo": "fifo", "loop": "loop", "dangling": "nowhere", "link-dir": "."} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"a.rst", "link.rst"} {
		if data, err := Read(filepath.Join(dir, name)); err != nil || string(data) != "text\n" {
			t.Errorf("%s: %q, %v", name, data, err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, name := range []string{"fifo", "link-fifo", ".", "link-dir"} {
			if _, err := Read(filepath.Join(dir, name)); !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: %v, want ErrNotRegular", name, err)
			}
		}
		for _, name := range []string{"loop", "dangling"} {
			var pe *fs.PathError
			if _, err := Read(filepath.Join(dir, name)); !errors.As(err, &pe) {
				t.Errorf("%s: %v, want a *fs.PathError", name, err)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a read blocked")
	}
	if _, st, err := ReadInto(filepath.Join(dir, "fifo"), nil, -1); st == nil || st.Mode()&fs.ModeNamedPipe == 0 || err == nil {
		t.Errorf("ReadInto of a FIFO gives its stat and an error: %v %v", st, err)
	}
	if got := Describe(fs.ModeNamedPipe).Error(); got != "a named pipe (FIFO), not a regular file" {
		t.Errorf("Describe(FIFO) = %q", got)
	}
}

// ReadInto reuses the buffer it is given, grows it for a larger file, and
// refuses a file over its limit unread.
func TestReadInto(t *testing.T) {
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small"), filepath.Join(dir, "big")
	os.WriteFile(small, []byte("abc"), 0o644)
	os.WriteFile(big, make([]byte, 1000), 0o644)
	buf := make([]byte, 0, 64)
	got, st, err := ReadInto(small, buf, 100)
	if err != nil || string(got) != "abc" || st.Size() != 3 || &got[:1][0] != &buf[:1][0] {
		t.Errorf("small file: %q %v, buffer reused: %v", got, err, err == nil && &got[:1][0] == &buf[:1][0])
	}
	var tl *TooLarge
	if _, _, err := ReadInto(big, buf, 100); !errors.As(err, &tl) || tl.Size != 1000 || !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file over the limit: %v", err)
	}
	if got, _, err := ReadInto(big, buf, -1); err != nil || len(got) != 1000 {
		t.Errorf("no limit: %d bytes, %v", len(got), err)
	}
}
