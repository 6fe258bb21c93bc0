//go:build unix

package cfgfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Read refuses what is not a regular file: a link to a missing file
// (present, so refused rather than taken as absent), a folder and a FIFO
// (which it must not block on).
func TestReadNotRegular(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "dangling.toml")
	if err := os.Symlink(filepath.Join(dir, "gone"), dangling); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(dangling); err == nil || !strings.Contains(err.Error(), "a link to a missing file") {
		t.Errorf("Read(dangling link) = %v", err)
	}
	if !Present(dangling) {
		t.Error("Present(dangling link) = false: such a file is there to be refused")
	}
	if _, err := Read(dir); err == nil {
		t.Error("Read(folder) read a folder")
	}
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := Read(fifo); err == nil {
		t.Error("Read(FIFO) read a FIFO")
	}
}
