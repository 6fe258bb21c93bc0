package check

import (
	"io"
	"os"
	"time"

	"github.com/seg-trace/seg/parser"
)

// readFile reads the regular file name into buf (grown when too small)
// and returns its bytes and modification time. Anything but a regular
// file fails with errNotRegular; the open does not block, so a file
// replaced by a FIFO since the walk cannot hang the run. Errors are
// *fs.PathError.
//
// The reused buffer is what this buys over os.ReadFile, which allocates
// every file afresh (and stats it first): a run served from the result
// cache (50,000 requirements, 3,523 files hashed) took 1.4 to 1.55 times
// as long with os.ReadFile (0.163 s against 0.111 s, medians of 31
// alternating runs). Raw system calls in place of package os (one fewer
// per file) bought 1 to 8 %, less than the 15 % a clever part must buy,
// and are gone (docs/performance.md, "What the clever parts buy").
func readFile(name string, buf []byte) ([]byte, time.Time, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return buf, time.Time{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return buf, time.Time{}, err
	}
	if !st.Mode().IsRegular() {
		return buf, time.Time{}, errNotRegular
	}
	size := st.Size()
	if size > parser.MaxFileSize || size >= int64(^uint(0)>>1) {
		return buf, time.Time{}, &tooLarge{size}
	}
	// One byte more than the size, to see the end of the file in the same
	// read.
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
			return buf[:0], time.Time{}, err
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
	return buf[:n], st.ModTime(), nil
}
