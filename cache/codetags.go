package cache

import (
	"encoding/binary"
	"encoding/hex"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/seg-trace/seg/internal/fileid"
	"github.com/seg-trace/seg/internal/safefile"
)

// CodeTags remembers what the code tags scan found in each source file
// (package codetags, docs/codetags.md), by the file's identity as Sums
// knows files: absolute path and fileid.ID.
// A file whose identity is what it was is not read again. Its entries are
// the scanner's own encoding; key names the scanner's settings, so a scan
// under other settings has a memory of its own. As with Sums, a file
// changed within fileid.RacyWindow of its scan is not remembered.
type CodeTags struct {
	path  string
	mu    sync.Mutex
	m     map[string]*codeEntry
	dirty bool
}

type codeEntry struct {
	data    []byte
	touched bool // used by this run
}

// codeTagsFile is the name of the memory of one settings key.
const codeTagsFile = "code-tags-v2-"

// CodeTags returns the memory of the scans made with settings key, read
// from disk (a missing or damaged file is an empty memory).
func (c *Cache) CodeTags(key string) *CodeTags {
	// The build's identity is in the name too: another build of seg may
	// scan or encode otherwise.
	name := codeTagsFile + key + "-" + hex.EncodeToString(c.salt[:6])
	t := &CodeTags{path: filepath.Join(c.dir, name), m: map[string]*codeEntry{}}
	data, err := safefile.Read(t.path)
	if err != nil {
		return t
	}
	for len(data) > 0 {
		id, rest, ok := cutEntry(data)
		if !ok {
			break
		}
		entry, rest, ok := cutEntry(rest)
		if !ok {
			break
		}
		t.m[string(id)] = &codeEntry{data: entry}
		data = rest
	}
	return t
}

func cutEntry(b []byte) (entry, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, false
	}
	return b[k : k+int(n) : k+int(n)], b[k+int(n):], true
}

// Get is the entry of the file abs whose stat is st, when remembered.
func (t *CodeTags) Get(abs string, st fs.FileInfo) ([]byte, bool) {
	id := fileKey(abs, fileid.Of(st))
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.m[id]
	if !ok {
		return nil, false
	}
	e.touched = true
	return e.data, true
}

// Put remembers entry for the file abs, stat'ed as st before it was
// read, unless it changed too recently to be trusted.
func (t *CodeTags) Put(abs string, st fs.FileInfo, entry []byte) {
	if st == nil || !fileid.Of(st).Settled(clock()) {
		return
	}
	id := fileKey(abs, fileid.Of(st))
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m[id] = &codeEntry{data: entry, touched: true}
	t.dirty = true
}

// Save writes the memory when it changed, keeping the entries this run
// used and those of files that still exist. It never fails a run.
func (t *CodeTags) Save() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.dirty {
		return
	}
	used := func(e *codeEntry) bool { return e.touched }
	if saveIdentities(t.path, t.m, used, func(b []byte, id string, e *codeEntry) []byte {
		b = binary.AppendUvarint(b, uint64(len(id)))
		b = append(b, id...)
		b = binary.AppendUvarint(b, uint64(len(e.data)))
		return append(b, e.data...)
	}) {
		t.dirty = false
	}
}
