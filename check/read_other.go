//go:build !linux

package check

import (
	"os"
	"time"

	"github.com/seg-trace/seg/parser"
)

// readFile reads the regular file name and returns its bytes and
// modification time; anything but a regular file fails with
// errNotRegular. buf is not used.
func readFile(name string, buf []byte) ([]byte, time.Time, error) {
	st, err := os.Stat(name)
	if err != nil {
		return buf, time.Time{}, err
	}
	if !st.Mode().IsRegular() {
		return buf, time.Time{}, errNotRegular
	}
	if st.Size() > parser.MaxFileSize {
		return buf, time.Time{}, &tooLarge{st.Size()}
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return buf, time.Time{}, err
	}
	return data, st.ModTime(), nil
}
