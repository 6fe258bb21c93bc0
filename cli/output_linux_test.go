package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A disk that fills up while the report is written through a link leaves
// the link's target as it was, and no temporary file. The disk is a small
// tmpfs, so the test needs root (it skips without).
func TestOutputFullDisk(t *testing.T) {
	disk := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v %s", err, out)
	}
	defer exec.Command("umount", disk).Run()
	report := filepath.Join(disk, "report.json")
	if err := os.WriteFile(report, []byte("old report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link.json")
	symlink(t, report, link)
	err := writeOutput(t, link, strings.Repeat("a report that does not fit\n", 1<<15), true)
	if err == nil || !strings.Contains(err.Error(), "no space left") || !strings.Contains(err.Error(), link) {
		t.Errorf("writing 864 KiB to a 64 KiB disk: %v, want an error naming %s", err, link)
	}
	if got := readText(t, report); got != "old report\n" {
		t.Errorf("a full disk changed the link's target: %d bytes", len(got))
	}
	wantLink(t, link, report)
	noTemp(t, disk)
}
