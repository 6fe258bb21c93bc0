//go:build unix

package cache

import (
	"io/fs"
	"strconv"
	"syscall"
)

// sysIdentity is the device and inode of a file: a file replaced by
// another of the same size and time is still told apart.
func sysIdentity(st fs.FileInfo) string {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		// As fmt's "%d %d" writes them, without its cost (a scan of a
		// large tree takes the identity of every file).
		b := strconv.AppendUint(make([]byte, 0, 40), uint64(s.Dev), 10)
		b = append(b, ' ')
		return string(strconv.AppendUint(b, uint64(s.Ino), 10))
	}
	return ""
}
