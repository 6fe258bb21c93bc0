// Package safefile is the one way seg opens and reads a file it did not
// write: the tree's documents, :source: files, results files, its
// configuration and the cache's own files.
//
// Only a regular file is read. The open does not block (O_NONBLOCK where
// the system has FIFOs), and what was opened is checked again by its
// descriptor, so a FIFO, a device or a socket (which would block the run
// or never end), even one put in a file's place after it was listed,
// fails with ErrNotRegular instead of hanging seg. Links are followed.
package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

var (
	// ErrNotRegular is the reason for not reading a folder, a FIFO, a
	// device or a socket.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is a file over the limit a reader was given.
	ErrTooLarge = errors.New("file too large")
)

// TooLarge is ErrTooLarge with the file's size.
type TooLarge struct{ Size int64 }

func (e *TooLarge) Error() string { return ErrTooLarge.Error() }
func (e *TooLarge) Unwrap() error { return ErrTooLarge }

// Open opens the regular file name for reading, without blocking, and
// returns it with its stat (taken on the open file). Anything but a
// regular file fails with ErrNotRegular; other errors are *fs.PathError.
func Open(name string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, st, ErrNotRegular
	}
	return f, st, nil
}

// Read reads the whole regular file name, as Open opens it.
func Read(name string) ([]byte, error) {
	data, _, err := ReadInto(name, nil, -1)
	return data, err
}

// ReadInto reads the regular file name into buf (grown when too small)
// and returns its bytes and its stat (the stat alone, with
// ErrNotRegular, when the file is not regular). A file over limit bytes (limit < 0:
// none) fails with *TooLarge, unread.
//
// The reused buffer is what this buys over os.ReadFile, which allocates
// every file afresh (and stats it first): a run served from the result
// cache (50,000 requirements, 3,523 files hashed) took 1.4 to 1.55 times
// as long with os.ReadFile (0.163 s against 0.111 s, medians of 31
// alternating runs). Raw system calls in place of package os (one fewer
// per file) bought 1 to 8 %, less than the 15 % a clever part must buy,
// and are gone (docs/performance.md, "What the clever parts buy").
func ReadInto(name string, buf []byte, limit int64) ([]byte, fs.FileInfo, error) {
	f, st, err := Open(name)
	if err != nil {
		return buf[:0], st, err // st, when the file is not regular
	}
	defer f.Close()
	size := st.Size()
	if limit >= 0 && size > limit || size >= int64(^uint(0)>>1) {
		return buf[:0], nil, &TooLarge{size}
	}
	// One byte more than the size, to see the end of the file in the same
	// read; a file that grew since the stat is still read whole.
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, size+1)
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		m, err := f.Read(buf[n:])
		n += m
		if err == io.EOF {
			break
		}
		if err != nil {
			return buf[:0], nil, err
		}
		if n < len(buf) && int64(n) >= size {
			// A short read at (or past) the size Stat gave: the end.
			break
		}
		if n == len(buf) {
			buf = append(buf, 0)
			buf = buf[:cap(buf)]
		}
	}
	if limit >= 0 && int64(n) > limit {
		return buf[:0], nil, &TooLarge{int64(n)}
	}
	return buf[:n], st, nil
}

// Describe says what a file of mode m is when it is not a regular file.
func Describe(m fs.FileMode) error {
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
