package check

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.rst")
	big := filepath.Join(dir, "big.rst")
	empty := filepath.Join(dir, "empty.rst")
	bigData := bytes.Repeat([]byte("0123456789abcdef"), 40000)
	for name, data := range map[string][]byte{small: []byte("abc\n"), big: bigData, empty: nil} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	buf := make([]byte, 0, 16)
	got, mtime, err := readFile(small, buf)
	if err != nil || string(got) != "abc\n" || mtime.IsZero() {
		t.Fatalf("small: %q %v %v", got, mtime, err)
	}
	if &got[:1][0] != &buf[:1][0] {
		t.Error("a buffer large enough was not reused")
	}
	got, _, err = readFile(big, got)
	if err != nil || !bytes.Equal(got, bigData) {
		t.Fatalf("big: %d bytes, %v", len(got), err)
	}
	// The grown buffer comes back and serves a smaller file.
	again, _, err := readFile(small, got)
	if err != nil || string(again) != "abc\n" || &again[0] != &got[0] {
		t.Fatalf("small after big: %q %v (reused: %t)", again, err, err == nil && &again[0] == &got[0])
	}
	if got, _, err := readFile(empty, nil); err != nil || len(got) != 0 {
		t.Fatalf("empty: %q %v", got, err)
	}
	if _, _, err := readFile(filepath.Join(dir, "missing.rst"), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v, want fs.ErrNotExist", err)
	} else if pe := (*fs.PathError)(nil); !errors.As(err, &pe) {
		t.Errorf("missing: %T, want *fs.PathError", err)
	}
	if _, _, err := readFile(dir, nil); err != errNotRegular {
		t.Errorf("folder: %v, want errNotRegular", err)
	}
	// A FIFO (a file replaced since the walk) is refused at once, not
	// waited on.
	fifo := filepath.Join(dir, "fifo.rst")
	if mkfifo(fifo) != nil {
		return
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := readFile(fifo, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != errNotRegular {
			t.Errorf("FIFO: %v, want errNotRegular", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
}
