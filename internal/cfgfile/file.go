// Package cfgfile reads the configuration files seg is given or finds
// (seg.toml, a sphinx-needs project's ubproject.toml and conf.py, the
// needs.json files it imports) the one safe way, and places what is wrong
// in them on a line: the TOML decoder gives positions for syntax errors
// only, so the helpers here find the line a key or value is on.
package cfgfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
// one. The file is opened without blocking, so a FIFO put in its place
// after the check cannot hang seg either. The error is the bare reason;
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
		return nil, notRegular(st.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlocking, 0)
	if err != nil {
		return nil, bare(err)
	}
	defer f.Close()
	st, err = f.Stat()
	if err != nil {
		return nil, bare(err)
	} else if !st.Mode().IsRegular() {
		return nil, notRegular(st.Mode())
	}
	// Read into a buffer of the file's size (a seg.lock of a large tree is
	// tens of megabytes, and the language server reads it at every
	// edit); one byte more sees that the file ended where it said, and
	// a file that grew since is still read whole.
	data := make([]byte, 0, st.Size()+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, bare(err)
		}
	}
}

func notRegular(m fs.FileMode) error {
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a folder, not a file"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO), not a regular file"
	case m&fs.ModeDevice != 0:
		what = "a device, not a regular file"
	case m&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	}
	return errors.New(what)
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
