// Package fileid is the one identity seg gives a file's content between
// two reads, and the one racy window in which that identity is not
// trusted. A file whose ID is what it was when it was hashed (or scanned,
// or parsed) is taken to hold the same bytes, and is not read again: the
// source sums and code-tag memory of the cache, the :source: and results
// memos of a live check all decide so here.
//
// As git's index does, an ID is trusted only once the file has been left
// alone for RacyWindow: a write within one tick of the file system's
// clock of the stat that read it could leave size and times as they were.
package fileid

import (
	"io/fs"
	"strconv"
	"time"
)

// RacyWindow is how long after its last change (modification or status
// change, whichever is later) a file's ID is taken to change again with
// its content.
const RacyWindow = 2 * time.Second

// ID is what a file's content is known by: its size, modification and
// change times (nanoseconds; Ctime 0 where the system gives none), mode,
// and the system's device and inode (0 where it gives none), so that a
// file replaced by another of the same size and times is still told
// apart, and a chmod or a write that sets the modification time back
// still moves the change time on.
type ID struct {
	Size, Mtime, Ctime int64
	Mode               fs.FileMode
	Dev, Ino           uint64
}

// Of is the ID of the file st describes.
func Of(st fs.FileInfo) ID {
	id := ID{Size: st.Size(), Mtime: st.ModTime().UnixNano(), Mode: st.Mode()}
	id.Dev, id.Ino, id.Ctime = sysIdentity(st)
	return id
}

// Settled reports whether the file last changed more than RacyWindow
// before now, so that a later change shows in its ID.
func (id ID) Settled(now time.Time) bool {
	return now.UnixNano()-max(id.Mtime, id.Ctime) > int64(RacyWindow)
}

// String is the ID as text, for keys of memories kept on disk.
func (id ID) String() string {
	b := make([]byte, 0, 96)
	for _, v := range []int64{id.Size, id.Mtime, id.Ctime, int64(id.Mode)} {
		b = strconv.AppendInt(b, v, 10)
		b = append(b, ' ')
	}
	b = strconv.AppendUint(b, id.Dev, 10)
	b = append(b, ' ')
	return string(strconv.AppendUint(b, id.Ino, 10))
}
