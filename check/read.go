package check

import (
	"time"

	"github.com/seg-trace/seg/internal/safefile"
	"github.com/seg-trace/seg/parser"
)

// readFile reads the regular file name into buf (grown when too small)
// and returns its bytes and modification time, as package safefile reads
// every file seg did not write: anything but a regular file fails with
// errNotRegular without blocking, a file over parser.MaxFileSize with
// *tooLarge. Other errors are *fs.PathError.
func readFile(name string, buf []byte) ([]byte, time.Time, error) {
	data, st, err := safefile.ReadInto(name, buf, parser.MaxFileSize)
	if err != nil {
		return data, time.Time{}, err
	}
	return data, st.ModTime(), nil
}
