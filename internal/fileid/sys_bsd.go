//go:build darwin || freebsd || netbsd

package fileid

import (
	"io/fs"
	"syscall"
)

// sysIdentity is what the system adds to a file's identity: its device
// and inode (a file replaced by another is told apart) and its change
// time, which every write, chmod or chown moves on to the clock's time
// whatever the modification time is set to.
func sysIdentity(st fs.FileInfo) (dev, ino uint64, ctime int64) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Dev), uint64(s.Ino), s.Ctimespec.Nano()
	}
	return 0, 0, 0
}
