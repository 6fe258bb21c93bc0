package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// loadSoon is Load that fails the test, rather than hanging it, when Load
// does not return within a few seconds.
func loadSoon(t *testing.T, root, explicit string) (*Config, error) {
	t.Helper()
	type result struct {
		c   *Config
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := Load(root, explicit)
		done <- result{c, err}
	}()
	select {
	case r := <-done:
		return r.c, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("Load(%s, %q) hangs", root, explicit)
		return nil, nil
	}
}

// wantConfigError fails unless err is a config error naming the file
// (its path ends in file) with a message containing msg.
func wantConfigError(t *testing.T, err error, file, msg string) {
	t.Helper()
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("%s: error %v, want a config error", file, err)
	}
	if !strings.HasSuffix(filepath.ToSlash(ce.File), file) || !strings.Contains(ce.Msg, msg) {
		t.Errorf("got %s: %s\nwant the file %s and %q", ce.File, ce.Msg, file, msg)
	}
}

// A config file that is a FIFO (or another file that is not a regular
// one) is refused naming it, for every file the config reader would read:
// seg.toml, --config, ubproject.toml, a conf.py in any of the places
// looked at, and the ubproject.toml a conf.py names. Before, seg waited
// forever for a writer.
func TestConfigNotRegular(t *testing.T) {
	const needsPy = "extensions = ['sphinx_needs']\n"
	cases := []struct {
		name  string
		files map[string]string
		fifo  string // made a FIFO
		flag  bool   // given as --config
	}{
		{"seg.toml", nil, "seg.toml", false},
		{"--config", nil, "other.toml", true},
		{"ubproject.toml", nil, "ubproject.toml", false},
		{"root conf.py", map[string]string{"docs/conf.py": needsPy}, "conf.py", false},
		{"docs/conf.py", nil, "docs/conf.py", false},
		{"needs_from_toml", map[string]string{"docs/conf.py": needsPy + "needs_from_toml = 'ub.toml'\n"}, "docs/ub.toml", false},
		{"[needs] config", map[string]string{"seg.toml": "[needs]\nconfig = 'needs/ub.toml'\n"}, "needs/ub.toml", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, tc.files)
			fifo := filepath.Join(root, filepath.FromSlash(tc.fifo))
			if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := mkfifo(fifo); err != nil {
				t.Skipf("no FIFOs here: %v", err)
			}
			explicit := ""
			if tc.flag {
				explicit = fifo
			}
			_, err := loadSoon(t, root, explicit)
			wantConfigError(t, err, tc.fifo, "a named pipe (FIFO), not a regular file")
		})
	}

	// A device, given as --config.
	if _, err := os.Stat(os.DevNull); err == nil {
		_, err := loadSoon(t, t.TempDir(), os.DevNull)
		wantConfigError(t, err, os.DevNull, "a device, not a regular file")
	}
}

// A link to a missing file, where the config reader would read a file, is
// a config seg cannot read (exit 2), not a tree without a config.
func TestConfigDanglingLink(t *testing.T) {
	cases := []struct {
		link  string
		files map[string]string
	}{
		{"seg.toml", nil},
		{"ubproject.toml", nil},
		{"conf.py", nil},
		{"docs/conf.py", map[string]string{"conf.py": "extensions = ['sphinx.ext.autodoc']\n"}},
		{"needs/ub.toml", map[string]string{"seg.toml": "[needs]\nconfig = 'needs/ub.toml'\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.link, func(t *testing.T) {
			root := tree(t, tc.files)
			link := filepath.Join(root, filepath.FromSlash(tc.link))
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("gone.toml", link); err != nil {
				t.Skipf("cannot make links here: %v", err)
			}
			_, err := loadSoon(t, root, "")
			wantConfigError(t, err, tc.link, "a link to a missing file (gone.toml)")
		})
	}
	// A link to a file that is there is read as the file.
	root := tree(t, map[string]string{"real.toml": "[directives]\nhlr = \"requirement\"\n"})
	if err := os.Symlink("real.toml", filepath.Join(root, "seg.toml")); err != nil {
		t.Skipf("cannot make links here: %v", err)
	}
	c, err := loadSoon(t, root, "")
	if err != nil || c.File == "" {
		t.Fatalf("a link to a config: %v, file %q", err, c.File)
	}
}

// Of the places a conf.py is looked for, the first whose extensions load
// sphinx-needs is the project's: a root conf.py without sphinx-needs does
// not hide docs/conf.py (docs/sphinx-needs.md). Those after it are not
// read.
func TestConfPyFirstWithNeeds(t *testing.T) {
	c := load(t, map[string]string{
		"conf.py":             "extensions = ['sphinx.ext.autodoc']\n",
		"docs/conf.py":        "extensions = ['sphinx_needs']\nneeds_types = [dict(directive='indocs')]\n",
		"docs/source/conf.py": "extensions = ['sphinx_needs']\nneeds_types = [dict(directive='later')]\n",
		"source/conf.py":      "extensions = ['sphinx_needs']\nneeds_types = load()\n",
	})
	if c.Needs == nil {
		t.Fatal("docs/conf.py, which loads sphinx-needs, made no project")
	}
	if d := cmp.Diff([]string{"indocs=need  "}, typesOf(c.Needs)); d != "" {
		t.Errorf("types (-want +got):\n%s", d)
	}
	if !strings.HasSuffix(filepath.ToSlash(c.NeedsFile), "docs/conf.py") {
		t.Errorf("NeedsFile %q, want docs/conf.py", c.NeedsFile)
	}

	// With a seg.toml mapping of its need types, the mapping applies
	// (before, the mapping named a type of no project: exit 2).
	c = load(t, map[string]string{
		"conf.py":      "extensions = ['sphinx.ext.autodoc']\n",
		"doc/conf.py":  "extensions = ['sphinx_needs']\nneeds_types = [dict(directive='sysreq')]\n",
		"seg.toml":     "[needs.types]\nsysreq = \"requirement\"\n",
		"doc/index.rs": "",
	})
	if d := cmp.Diff([]string{"sysreq=requirement  "}, typesOf(c.Needs)); d != "" {
		t.Errorf("mapped types (-want +got):\n%s", d)
	}

	// None loads sphinx-needs: no project.
	c = load(t, map[string]string{
		"conf.py":      "extensions = []\n",
		"docs/conf.py": "extensions = ['sphinx.ext.autodoc']\n",
	})
	if c.Needs != nil {
		t.Error("conf.py files without sphinx-needs made a project")
	}
}
