package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// writeOutput writes text to name through --output's writer; whole says
// whether the report is finished (renamed into place) or dropped, as a
// run that fails after opening its output drops it.
func writeOutput(t *testing.T, name, text string, whole bool) error {
	t.Helper()
	o, err := openOutput(name)
	if err != nil {
		return err
	}
	defer o.discard()
	if _, err := o.bw.WriteString(text); err != nil {
		return err
	}
	if !whole {
		return nil
	}
	return o.finish()
}

func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantLink fails unless name is still a link to to.
func wantLink(t *testing.T, name, to string) {
	t.Helper()
	got, err := os.Readlink(name)
	if err != nil {
		t.Fatalf("%s is no longer a link: %v", name, err)
	}
	if got != to {
		t.Fatalf("%s links to %q, want %q", name, got, to)
	}
}

// noTemp fails when a temporary file of --output is left in dir.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".seg-tmp") {
			t.Errorf("temporary file left behind: %s", filepath.Join(dir, e.Name()))
		}
	}
}

func symlink(t *testing.T, to, name string) {
	t.Helper()
	if err := os.Symlink(to, name); err != nil {
		t.Skipf("cannot make links here: %v", err)
	}
}

// A report written through a link replaces the link's target whole, or
// leaves it untouched, and the link stays a link: chains of links,
// a dangling link (its target is made), a relative link in a folder
// reached through a link, and a loop of links (refused).
func TestOutputThroughLink(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(report, []byte("old report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, "report.json", link)

	// A run that fails after opening the output leaves the target as it was.
	if err := writeOutput(t, link, "half a rep", false); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, report); got != "old report\n" {
		t.Errorf("a dropped report changed the link's target: %q", got)
	}
	wantLink(t, link, "report.json")
	noTemp(t, dir)

	// A whole one replaces it.
	if err := writeOutput(t, link, "new report\n", true); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, report); got != "new report\n" {
		t.Errorf("target holds %q, want the new report", got)
	}
	wantLink(t, link, "report.json")
	noTemp(t, dir)

	// A chain of links.
	chain := filepath.Join(dir, "chain.json")
	symlink(t, "link.json", chain)
	if err := writeOutput(t, chain, "third\n", true); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, report); got != "third\n" {
		t.Errorf("through two links, target holds %q", got)
	}
	wantLink(t, chain, "link.json")
	wantLink(t, link, "report.json")

	// A dangling link: the file it names is made.
	dangling := filepath.Join(dir, "dangling.json")
	symlink(t, "made.json", dangling)
	if err := writeOutput(t, dangling, "made\n", true); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, filepath.Join(dir, "made.json")); got != "made\n" {
		t.Errorf("dangling link's target holds %q", got)
	}
	wantLink(t, dangling, "made.json")
	noTemp(t, dir)

	// A relative link in a folder reached through a link: ".." is the
	// real folder's parent, as the system resolves it.
	real := filepath.Join(dir, "real", "sub")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join("real", "sub"), filepath.Join(dir, "via"))
	symlink(t, filepath.Join("..", "up.json"), filepath.Join(real, "up-link.json"))
	if err := writeOutput(t, filepath.Join(dir, "via", "up-link.json"), "up\n", true); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, filepath.Join(dir, "real", "up.json")); got != "up\n" {
		t.Errorf("relative link through a linked folder: real/up.json holds %q", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "up.json")); err == nil {
		t.Errorf("the relative link was resolved against the link's path, not the real folder")
	}

	// A loop of links is refused, naming the file.
	symlink(t, "loop-b", filepath.Join(dir, "loop-a"))
	symlink(t, "loop-a", filepath.Join(dir, "loop-b"))
	err := writeOutput(t, filepath.Join(dir, "loop-a"), "x", true)
	if err == nil || !strings.Contains(err.Error(), "loop-a") {
		t.Errorf("a loop of links: %v, want an error naming loop-a", err)
	}
	noTemp(t, dir)
}

// A temporary file left by a run that was killed, even one under this
// process's ID (which a container gives every run), does not stand in
// the way, and is not removed by someone else's run.
func TestOutputLeftoverTemp(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "report.json")
	leftovers := []string{
		fmt.Sprintf(".report.json.%d.seg-tmp", os.Getpid()),
		".report.json.1.seg-tmp",
	}
	for _, l := range leftovers {
		if err := os.WriteFile(filepath.Join(dir, l), []byte("killed"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		text := fmt.Sprintf("report %d\n", i)
		if err := writeOutput(t, name, text, true); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if got := readText(t, name); got != text {
			t.Errorf("run %d: %q", i, got)
		}
	}
	for _, l := range leftovers {
		if _, err := os.Stat(filepath.Join(dir, l)); err != nil {
			t.Errorf("another run's temporary file is gone: %v", err)
		}
	}
}

// A new file is 0644 less the umask; a replaced file keeps its
// permissions, through a link too.
func TestOutputMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits on Windows")
	}
	dir := t.TempDir()
	mode := func(name string) fs.FileMode {
		st, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		return st.Mode().Perm()
	}
	um := setUmask(0o022)
	defer setUmask(um)

	fresh := filepath.Join(dir, "new.json")
	if err := writeOutput(t, fresh, "x", true); err != nil {
		t.Fatal(err)
	}
	if m := mode(fresh); m != 0o644 {
		t.Errorf("new file under umask 022: %v, want 0644", m)
	}

	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o640); err != nil {
		t.Fatal(err)
	}
	symlink(t, "old.json", filepath.Join(dir, "old-link.json"))
	for _, name := range []string{old, filepath.Join(dir, "old-link.json")} {
		if err := writeOutput(t, name, "y", true); err != nil {
			t.Fatal(err)
		}
		if m := mode(old); m != 0o640 {
			t.Errorf("replaced through %s: %v, want 0640 as before", filepath.Base(name), m)
		}
	}

	setUmask(0o077)
	private := filepath.Join(dir, "private.json")
	if err := writeOutput(t, private, "z", true); err != nil {
		t.Fatal(err)
	}
	if m := mode(private); m != 0o600 {
		t.Errorf("new file under umask 077: %v, want 0600", m)
	}
}

// Devices and FIFOs are written in place, through a link too: no
// temporary file beside them, and a FIFO's reader gets the report.
func TestOutputInPlace(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	symlink(t, "pipe", filepath.Join(dir, "pipe-link"))
	got := make(chan string)
	go func() {
		b, err := os.ReadFile(fifo)
		if err != nil {
			got <- err.Error()
		}
		got <- string(b)
	}()
	if err := writeOutput(t, filepath.Join(dir, "pipe-link"), "through the pipe\n", true); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe\n" {
		t.Errorf("the FIFO's reader got %q", s)
	}
	wantLink(t, filepath.Join(dir, "pipe-link"), "pipe")
	noTemp(t, dir)

	if runtime.GOOS != "windows" {
		if err := writeOutput(t, os.DevNull, "nothing\n", true); err != nil {
			t.Errorf("%s: %v", os.DevNull, err)
		}
		if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
			t.Errorf("%s is no longer a device: %v", os.DevNull, err)
		}
	}

	// A folder is refused, naming it.
	err := writeOutput(t, dir, "x", true)
	if err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("a folder: %v", err)
	}
}
