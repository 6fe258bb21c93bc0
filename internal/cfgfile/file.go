// Package cfgfile reads the configuration files seg is given or finds
// (seg.toml, a sphinx-needs project's ubproject.toml and conf.py, the
// needs.json files it imports) the one safe way, and places what is wrong
// in them on a line: the TOML decoder gives positions for syntax errors
// only, so the helpers here find the line a key or value is on.
package cfgfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/seg-trace/seg/internal/safefile"
)

// Error is a problem with a configuration file, with the line it is on
// (0 when unknown). It always means exit code 2.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Read reads a config file seg was given or found (seg.lock too). Only a regular file
// is read: a FIFO or a device as seg.toml would block seg or never end,
// and a link to a missing file is a config seg cannot read, not an absent
// one. The file is read by package safefile, without blocking, so a FIFO
// put in its place after the check cannot hang seg either. The error is the bare reason;
// the caller names the file.
func Read(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		if to, lerr := os.Readlink(path); lerr == nil && errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("a link to a missing file (%s)", to)
		}
		return nil, bare(err)
	}
	if !st.Mode().IsRegular() {
		return nil, safefile.Describe(st.Mode())
	}
	// Read into a buffer of the file's size (a seg.lock of a large tree is
	// tens of megabytes, and the language server reads it at every edit).
	data, st, err := safefile.ReadInto(path, nil, -1)
	if errors.Is(err, safefile.ErrNotRegular) && st != nil {
		return nil, safefile.Describe(st.Mode())
	}
	if err != nil {
		return nil, bare(err)
	}
	return data, nil
}

// bare is err without the operation and path a *fs.PathError adds: the
// messages name the file themselves.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Present reports whether something is at path, a link to a missing file
// included: such a file is there to be read (and refused), not absent.
func Present(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
