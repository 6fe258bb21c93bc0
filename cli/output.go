package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mattn/go-isatty"
)

// output opens --output (or stdout) and decides color for the writer
// actually used. done finishes the report; discard, safe to defer, drops
// an unfinished one.
func output(o *options, stdout io.Writer) (w io.Writer, colored bool, done func() error, discard func(), err error) {
	w, done, discard = stdout, func() error { return nil }, func() {}
	if o.output != "" && o.output != "-" {
		f, err := openOutput(o.output)
		if err != nil {
			return nil, false, nil, nil, err
		}
		w, done, discard = f.bw, f.finish, f.discard
	}
	switch o.color {
	case "always":
		colored = true
	case "never":
		colored = false
	default:
		colored = os.Getenv("NO_COLOR") == "" && isTerminal(w)
	}
	return w, colored, done, discard, nil
}

// outFile is --output being written. A regular file (or a new one) is
// written under a temporary name beside it and renamed into place when
// the report is whole, so a failing run never leaves half a report and a
// large report is never held in memory; anything else (a device such as
// /dev/null, a FIFO, a link) is written in place.
type outFile struct {
	name, tmp string
	f         *os.File
	bw        *bufio.Writer
}

func openOutput(name string) (*outFile, error) {
	o := &outFile{name: name}
	var err error
	if st, lerr := os.Lstat(name); lerr == nil && !st.Mode().IsRegular() {
		o.f, err = os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
	} else {
		o.tmp = filepath.Join(filepath.Dir(name), fmt.Sprintf(".%s.%d.seg-tmp", filepath.Base(name), os.Getpid()))
		o.f, err = os.OpenFile(o.tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_EXCL, 0o644)
	}
	if err != nil {
		return nil, fmt.Errorf("seg: cannot write %s: %v", name, errors.Unwrap(err))
	}
	o.bw = bufio.NewWriterSize(o.f, 1<<16)
	return o, nil
}

func (o *outFile) finish() error {
	err := o.bw.Flush()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	o.f = nil
	if err == nil && o.tmp != "" {
		err = os.Rename(o.tmp, o.name)
	}
	if err != nil {
		if o.tmp != "" {
			os.Remove(o.tmp)
		}
		return fmt.Errorf("seg: cannot write %s: %v", o.name, errors.Unwrap(err))
	}
	return nil
}

func (o *outFile) discard() {
	if o.f != nil {
		o.f.Close()
		o.f = nil
		if o.tmp != "" {
			os.Remove(o.tmp)
		}
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
