package check

import (
	"io/fs"
	"syscall"
	"time"

	"github.com/seg-trace/seg/parser"
)

// readFile reads the regular file name into buf (grown when too small)
// and returns its bytes and modification time. It makes four system calls
// (open, fstat, read, close) where os.ReadFile makes about ten: on a
// virtual machine a system call is dear, and a tree has thousands of
// files. The open is non-blocking, so that a file replaced by a FIFO since
// the walk cannot block the run, and anything but a regular file fails
// with errNotRegular. Errors are *fs.PathError, as os's.
func readFile(name string, buf []byte) ([]byte, time.Time, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return buf, time.Time{}, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return buf, time.Time{}, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return buf, time.Time{}, errNotRegular
	}
	mtime := time.Unix(st.Mtim.Unix())
	size := int(st.Size)
	if st.Size > parser.MaxFileSize || int64(size) != st.Size {
		return buf, time.Time{}, &tooLarge{st.Size}
	}
	// One byte more than the size, to see the end of the file in the same
	// read.
	if cap(buf) < size+1 {
		buf = make([]byte, size+1)
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			return buf[:0], time.Time{}, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if m <= 0 {
			break
		}
		n += m
		if n < len(buf) && n >= size {
			// A short read at (or past) the size fstat gave: the end.
			break
		}
		if n == len(buf) {
			buf = append(buf, 0)
			buf = buf[:cap(buf)]
		}
	}
	return buf[:n], mtime, nil
}
