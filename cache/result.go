package cache

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"strconv"
	"sync/atomic"
)

// Result entries keep a whole report, so that a run on a tree that has not
// changed since a run with the same flags does no parsing, building or
// evaluating at all: the idea of `go test`'s cached results. Their key
// holds the hash of every file of the tree (a Scan's) and whatever else
// the caller's result depends on (ResultKey's parts). A result entry is
// framed, checked and pruned like a parse entry, and lives beside them.
//
// A file that changes while a run reads the tree would make the result
// belong to neither version of it: the run notices (Scan.changed) and
// stores no result.

// TreeFile is one file of a tree as its scan saw it: its path, and the
// SHA-256 of its bytes or, for a file that could not be read, what went
// wrong (Bad).
type TreeFile struct {
	Path string
	Sum  [32]byte
	Bad  string
}

// ResultKey is the key of a result computed from a tree whose files are
// files (in path order) and parts: everything else the result depends on
// (the command and its flags, the evaluation date, the configuration
// file's bytes, whether the output is colored...). The parts are the
// caller's to get complete.
func (c *Cache) ResultKey(files []TreeFile, parts ...string) [32]byte {
	h := sha256.New()
	writeString(h, "seg result")
	h.Write(c.salt[:])
	writeString(h, strconv.Itoa(len(files)))
	for _, f := range files {
		writeString(h, f.Path)
		if f.Bad != "" {
			h.Write([]byte{1})
			writeString(h, f.Bad)
		} else {
			h.Write([]byte{0})
			h.Write(f.Sum[:])
		}
	}
	writeString(h, strconv.Itoa(len(parts)))
	for _, p := range parts {
		writeString(h, p)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// A result entry is written while the report is written, so a large
// report is never held in memory twice. Its length and checksum go at the
// end. Before the report come the run's dependencies beyond the tree's
// files (the source files implementations name), which the caller checks
// before it uses the report:
//
//	magic "SEGR" | version (1 byte) | key (32 bytes) | deps length (uint32 LE) | deps | report | exit code (1 byte) | report length (uint64 LE) | CRC-32C of all before it (uint32 LE)
const (
	resultMagic      = "SEGR"
	resultTrailerLen = 1 + 8 + 4
)

// maxResultShare bounds one result entry, as a share of the cache's
// bound: a report that would push the parse entries out is not worth
// keeping.
const maxResultShare = 8

// LoadResult returns the exit code, report and dependencies stored under
// k. A damaged entry is counted as corrupt and not used.
func (c *Cache) LoadResult(k [32]byte) (code int, report, deps []byte, ok bool) {
	_, name := c.entryPath(&k)
	buf, mtime, err := readEntry(name)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.corrupt.Add(1)
		}
		return 0, nil, nil, false
	}
	n := len(buf)
	const head = 37 + 4
	if n < head+resultTrailerLen || string(buf[:4]) != resultMagic || buf[4] != formatVersion ||
		string(buf[5:37]) != string(k[:]) ||
		crc32.Checksum(buf[:n-4], crcTable) != binary.LittleEndian.Uint32(buf[n-4:]) {
		c.corrupt.Add(1)
		return 0, nil, nil, false
	}
	nd := uint64(binary.LittleEndian.Uint32(buf[37:head]))
	if nd > uint64(n-head-resultTrailerLen) || binary.LittleEndian.Uint64(buf[n-12:n-4]) != uint64(n-head-resultTrailerLen)-nd {
		c.corrupt.Add(1)
		return 0, nil, nil, false
	}
	touch(name, mtime)
	c.result = true
	return int(buf[n-13]), buf[head+int(nd) : n-13], buf[head : head+int(nd)], true
}

// ResultWriter writes a report into a new result entry as the report is
// written elsewhere; Commit puts it in place. Its Write never fails: a
// result that cannot be stored only means the next run does the work.
type ResultWriter struct {
	c       *Cache
	changed *atomic.Bool
	k       [32]byte
	f       *os.File
	bw      *bufio.Writer
	crc     uint32
	n       int64
	fail    bool
}

// NewResult starts the result entry for k, with the run's dependencies
// (LoadResult gives them back). changed is set, by the run, when a file of
// the tree changed while the run read it: then the entry is not committed.
func (c *Cache) NewResult(k [32]byte, changed *atomic.Bool, deps []byte) *ResultWriter {
	w := &ResultWriter{c: c, changed: changed, k: k}
	dir, _ := c.entryPath(&k)
	if err := c.mkdir(dir); err != nil {
		w.fail = true
		return w
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		w.fail = true
		return w
	}
	w.f, w.bw = f, bufio.NewWriterSize(f, 1<<16)
	var head [41]byte
	copy(head[:], resultMagic)
	head[4] = formatVersion
	copy(head[5:], k[:])
	binary.LittleEndian.PutUint32(head[37:], uint32(len(deps)))
	w.put(head[:])
	w.put(deps)
	if len(deps) > 1<<24 {
		w.fail = true
	}
	return w
}

func (w *ResultWriter) put(p []byte) {
	w.crc = crc32.Update(w.crc, crcTable, p)
	if _, err := w.bw.Write(p); err != nil {
		w.fail = true
	}
}

func (w *ResultWriter) Write(p []byte) (int, error) {
	if !w.fail {
		if w.n += int64(len(p)); w.n > w.c.maxBytes/maxResultShare {
			w.fail = true
		} else {
			w.put(p)
		}
	}
	return len(p), nil
}

// Commit finishes the entry with the run's exit code and puts it in
// place, unless something failed, the report grew too large, or a file of
// the tree changed while the run read it (then the report belongs to no
// version of the tree). It reports whether the entry was stored.
func (w *ResultWriter) Commit(code int) bool {
	if w.f == nil {
		return false
	}
	ok := !w.fail && !w.changed.Load() && code >= 0 && code < 256
	if ok {
		var tail [9]byte
		tail[0] = byte(code)
		binary.LittleEndian.PutUint64(tail[1:], uint64(w.n))
		w.put(tail[:])
		var sum [4]byte
		binary.LittleEndian.PutUint32(sum[:], w.crc)
		if _, err := w.bw.Write(sum[:]); err != nil || w.bw.Flush() != nil || w.fail {
			ok = false
		}
	}
	if err := w.f.Close(); err != nil {
		ok = false
	}
	tmp := w.f.Name()
	w.f = nil
	_, name := w.c.entryPath(&w.k)
	if ok && os.Rename(tmp, name) == nil {
		w.c.written.Add(1)
		w.c.bytes.Add(w.n + 41 + resultTrailerLen)
		w.c.maybePrune()
		return true
	}
	os.Remove(tmp)
	return false
}

// Discard drops an entry that was not committed (the run failed).
func (w *ResultWriter) Discard() {
	if w != nil && w.f != nil {
		w.f.Close()
		os.Remove(w.f.Name())
		w.f = nil
	}
}
