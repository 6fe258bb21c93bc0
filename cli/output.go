package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

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
// large report is never held in memory. A link is followed to the file it
// names (which need not exist yet), and that file is replaced: the link
// stays a link. Anything else (a device such as /dev/null, a FIFO) is
// written in place. docs/output.md has the rule, file modes included.
type outFile struct {
	name, tmp string // tmp is "" when name is written in place
	target    string // name with its links followed
	f         *os.File
	bw        *bufio.Writer
}

func openOutput(name string) (*outFile, error) {
	o := &outFile{name: name}
	fail := func(err error) (*outFile, error) {
		return nil, fmt.Errorf("seg: cannot write %s: %v", name, bare(err))
	}
	target, own, err := followLinks(name)
	if err != nil {
		return fail(err)
	}
	o.target = target
	if own {
		// The system follows such a link (/proc/self/fd/1 may name a
		// pipe), not a path seg could make a file beside.
		target = name
	}
	st, err := os.Stat(target)
	switch {
	case err == nil && st.IsDir():
		return fail(errors.New("is a folder"))
	case err == nil && (own || !st.Mode().IsRegular()):
		o.f, err = os.OpenFile(target, os.O_WRONLY|os.O_TRUNC, 0)
	case err == nil:
		// The new file takes the old one's permissions.
		o.f, err = createTemp(target, st.Mode().Perm())
		if err == nil {
			o.tmp = o.f.Name()
			err = o.f.Chmod(st.Mode().Perm())
		}
	case errors.Is(err, fs.ErrNotExist):
		// 0644 less the umask, as any new file.
		o.f, err = createTemp(target, 0o644)
		if err == nil {
			o.tmp = o.f.Name()
		}
	}
	if err != nil {
		o.discard()
		return fail(err)
	}
	o.bw = bufio.NewWriterSize(named{o}, 1<<16)
	return o, nil
}

// named writes to the file and names --output, not the temporary file, in
// an error (a full disk): the temporary name means nothing to the user.
type named struct{ o *outFile }

func (n named) Write(p []byte) (int, error) {
	k, err := n.o.f.Write(p)
	if err != nil {
		err = fmt.Errorf("cannot write %s: %v", n.o.name, bare(err))
	}
	return k, err
}

// maxLinks bounds a chain of links, as the kernel does (a loop would
// otherwise never end).
const maxLinks = 40

// followLinks returns the file name names after following its links. A
// link to a file that does not exist yet gives that file's name. Only the
// last element is followed: the folders on the way may be links, and the
// file is made and renamed in the folder they lead to either way. own is
// set when the name or a link on the way is in /dev or /proc:
// /dev/stdout, /dev/fd/N and /proc/self/fd/N are the process's own open
// files, written in place whatever they lead to.
func followLinks(name string) (target string, own bool, err error) {
	for range maxLinks {
		if abs, err := filepath.Abs(name); err == nil &&
			(strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/")) {
			return name, true, nil
		}
		st, err := os.Lstat(name)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return name, false, nil
		}
		to, err := os.Readlink(name)
		if err != nil {
			return "", false, err
		}
		if !filepath.IsAbs(to) {
			// Relative to the link's folder as the system resolves it,
			// not as written: ".." in the link follows the real parent.
			dir, err := filepath.EvalSymlinks(filepath.Dir(name))
			if err != nil {
				return "", false, err
			}
			to = filepath.Join(dir, to)
		}
		name = to
	}
	return "", false, errors.New("too many levels of symbolic links")
}

// createTemp makes a new file beside target, named .TARGET.RANDOM.seg-tmp,
// with the given permissions less the umask. The random part makes the
// name unused: a file left by a run that was killed, or one under the same
// process ID (every run in some containers), never stands in the way.
func createTemp(target string, perm fs.FileMode) (*os.File, error) {
	dir, base := filepath.Split(target)
	for range 10000 {
		tmp := filepath.Join(dir, "."+base+"."+strconv.FormatUint(uint64(rand.Uint32()), 36)+".seg-tmp")
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, errors.New("no unused temporary name beside it")
}

func (o *outFile) finish() error {
	err := o.bw.Flush()
	if err != nil {
		o.discard()
		return fmt.Errorf("seg: %v", err)
	}
	err = o.f.Close()
	o.f = nil
	if err == nil && o.tmp != "" {
		err = os.Rename(o.tmp, o.target)
	}
	if err != nil {
		if o.tmp != "" {
			os.Remove(o.tmp)
		}
		return fmt.Errorf("seg: cannot write %s: %v", o.name, bare(err))
	}
	return nil
}

// bare is err without the operation and file name that *fs.PathError and
// *os.LinkError add: the message names the --output file itself.
func bare(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
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
