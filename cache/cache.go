// Package cache keeps the result of parsing each file of a tree (a
// *parser.File) in the user's cache folder, so that a run on a tree that
// changed little parses only what changed.
//
// An entry is found by a key that holds everything the parse of one file
// depends on: seg's version and build identity (buildid.go), a hash of a
// canonical encoding of the parser's configuration, the file's path
// relative to the root (it is inside every position) and the SHA-256 of the
// file's bytes. An entry carries its own key, length and checksum (entry
// layout below) and is decoded defensively: an entry that is corrupt,
// truncated or written for another key is ignored and written again, so
// the cache can make a run faster but never change its result.
//
// Writes go to a temporary file in the entry's folder, renamed into place:
// a reader sees a whole entry or none, and two seg processes writing the
// same entry write the same bytes. The cache is bounded in size: when a run
// has written entries, and at most every few minutes, the entries used
// least recently (by modification time, refreshed on use at most once an
// hour) are removed until the total is under the bound.
package cache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seg-trace/seg/internal/safefile"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// Environment variables.
const (
	// EnvDir overrides the cache's base folder (default: the user's cache
	// folder, os.UserCacheDir, plus "seg"). "off" turns the cache off.
	EnvDir = "SEG_CACHE_DIR"
	// EnvMaxMB overrides the bound on the cache's size, in megabytes.
	EnvMaxMB = "SEG_CACHE_MAX_MB"
)

// DefaultMaxBytes bounds the cache's size when SEG_CACHE_MAX_MB is unset.
// The entries of a tree take about 0.95 times its RST, so the default
// holds a 200,000-requirement tree (247 MB of RST, 239 MB of entries) and
// a few smaller ones.
const DefaultMaxBytes = 1 << 30

// formatVersion is the entry layout's version: change it with the layout
// or the payload encoding. It is in both the key and every entry.
const formatVersion = 7

// Entry layout:
//
//	magic "SEGP" | version (1 byte) | key (32 bytes) | payload length (uint64 LE) | payload | CRC-32C of all before it (uint32 LE)
const (
	magic      = "SEGP"
	headerLen  = 4 + 1 + 32 + 8
	trailerLen = 4
)

// subdir is the folder under the base that holds this layout's entries, so
// a later layout can live beside it.
const subdir = "parse-v1"

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// touchAge is how old an entry's modification time must be before a use
// refreshes it; pruneEvery is how often a run that wrote may prune;
// tempAge is how old a temporary file must be before pruning removes it
// (a younger one may be another process's write in progress).
const (
	touchAge   = time.Hour
	pruneEvery = 10 * time.Minute
	tempAge    = time.Hour
)

// Stats counts what one ParseTree did.
type Stats struct {
	Files   int   // files read
	Hits    int   // files whose entry was used
	Misses  int   // files parsed (no usable entry)
	Corrupt int   // entries found but rejected (and written again)
	Written int   // entries written
	Bytes   int64 // bytes of entries written
	Pruned  int   // entries removed to keep the cache under its bound
	// Result is set when the whole report came from a result entry
	// (result.go): then no file was looked up.
	Result bool
}

// Cache is the parse cache of one build of seg under one parser
// configuration.
type Cache struct {
	dir      string   // base/parse-v1
	salt     [32]byte // version, build identity, format, parser config
	maxBytes int64
	made     sync.Map // entry folders known to exist

	hits, misses, corrupt, written atomic.Int64
	bytes                          atomic.Int64
	pruned                         int
	result                         bool

	sumsOnce sync.Once
	sums     *Sums
}

// BaseDir is the cache's base folder: $SEG_CACHE_DIR, or the user's cache
// folder plus "seg". ok is false when the cache is off (SEG_CACHE_DIR=off)
// or no folder can be found.
func BaseDir() (dir string, ok bool) {
	if d := os.Getenv(EnvDir); d != "" {
		if d == "off" {
			return "", false
		}
		return d, true
	}
	d, err := os.UserCacheDir()
	if err != nil || d == "" {
		return "", false
	}
	return filepath.Join(d, "seg"), true
}

// Open returns the cache under base for this build of seg (version is its
// version string) and this parser configuration, or nil when the build
// cannot be identified (then nothing may be cached). Open touches nothing
// on disk; folders are made when the first entry is written.
func Open(base, version string, cfg *parser.Config) *Cache {
	if cfg == nil {
		cfg = parser.DefaultConfig()
	}
	id := buildIdentity()
	if id == "" || base == "" {
		return nil
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		return nil
	}
	h := sha256.New()
	writeString(h, "seg parse cache")
	h.Write([]byte{formatVersion})
	writeString(h, version)
	writeString(h, id)
	ch := ConfigHash(cfg)
	h.Write(ch[:])
	c := &Cache{dir: filepath.Join(abs, subdir), maxBytes: DefaultMaxBytes}
	h.Sum(c.salt[:0])
	if v := os.Getenv(EnvMaxMB); v != "" {
		if mb, err := strconv.ParseInt(v, 10, 64); err == nil && mb > 0 {
			c.maxBytes = mb << 20
		}
	}
	return c
}

// Dir is the folder that holds the entries.
func (c *Cache) Dir() string { return c.dir }

func writeString(w io.Writer, s string) {
	var n [binary.MaxVarintLen64]byte
	w.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	io.WriteString(w, s)
}

// ConfigHash hashes a canonical encoding of what of the configuration can
// change the parse of a file: the directives and their kinds, the literal
// and extra option sets (every key, with its value) and the ID pattern.
// Exclude only changes which files are read, not how, so it is left out.
func ConfigHash(cfg *parser.Config) [32]byte {
	h := sha256.New()
	writeString(h, "directives")
	names := make([]string, 0, len(cfg.Directives))
	for k := range cfg.Directives {
		names = append(names, k)
	}
	sort.Strings(names)
	writeString(h, strconv.Itoa(len(names)))
	for _, k := range names {
		writeString(h, k)
		h.Write([]byte{byte(cfg.Directives[k])})
	}
	set := func(label string, m map[string]bool) {
		writeString(h, label)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		writeString(h, strconv.Itoa(len(keys)))
		for _, k := range keys {
			writeString(h, k)
			if m[k] {
				h.Write([]byte{1})
			} else {
				h.Write([]byte{0})
			}
		}
	}
	set("literal", cfg.Literal)
	set("extra", cfg.ExtraOptions)
	writeString(h, "id_pattern")
	if cfg.IDPattern == nil {
		h.Write([]byte{0})
	} else {
		h.Write([]byte{1})
		writeString(h, cfg.IDPattern.String())
	}
	writeString(h, "needs")
	writeString(h, cfg.Needs.Fingerprint())
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// key is an entry's key: the salt, the root-relative path and the hash of
// the file's bytes.
func (c *Cache) key(rel string, sum *[32]byte) [32]byte {
	h := sha256.New()
	h.Write(c.salt[:])
	writeString(h, rel)
	h.Write(sum[:])
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func (c *Cache) entryPath(k *[32]byte) (dir, name string) {
	x := hex.EncodeToString(k[:])
	dir = filepath.Join(c.dir, x[:2])
	return dir, filepath.Join(dir, x[2:])
}

// load returns the entry for k, or nil when there is none or it is not
// sound (found reports that there was a file).
func (c *Cache) load(k *[32]byte, sf *source.File) (f *parser.File, found bool) {
	_, name := c.entryPath(k)
	buf, mtime, err := readEntry(name)
	if err != nil {
		return nil, !errors.Is(err, fs.ErrNotExist)
	}
	payload, ok := checkEntry(buf, k)
	if !ok {
		return nil, true
	}
	f, err = decodeFile(payload, sf)
	if err != nil {
		return nil, true
	}
	touch(name, mtime)
	return f, true
}

// touch refreshes an entry's modification time now and then, so that
// pruning removes what was used least recently.
func touch(name string, mtime time.Time) {
	if time.Since(mtime) > touchAge {
		now := time.Now()
		os.Chtimes(name, now, now)
	}
}

// checkEntry checks an entry's framing and returns its payload.
func checkEntry(buf []byte, k *[32]byte) ([]byte, bool) {
	if len(buf) < headerLen+trailerLen || string(buf[:4]) != magic || buf[4] != formatVersion ||
		string(buf[5:37]) != string(k[:]) {
		return nil, false
	}
	n := binary.LittleEndian.Uint64(buf[37:headerLen])
	if n != uint64(len(buf)-headerLen-trailerLen) {
		return nil, false
	}
	end := len(buf) - trailerLen
	if crc32.Checksum(buf[:end], crcTable) != binary.LittleEndian.Uint32(buf[end:]) {
		return nil, false
	}
	return buf[headerLen:end], true
}

// encodeEntry frames f's encoding as an entry for k.
func encodeEntry(k *[32]byte, f *parser.File) ([]byte, error) {
	buf := make([]byte, headerLen, headerLen+4096)
	copy(buf, magic)
	buf[4] = formatVersion
	copy(buf[5:], k[:])
	buf, err := appendFile(buf, f)
	if err != nil {
		return nil, err
	}
	binary.LittleEndian.PutUint64(buf[37:], uint64(len(buf)-headerLen))
	return binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf, crcTable)), nil
}

// storeEntry writes a framed entry into place.
func (c *Cache) storeEntry(k *[32]byte, data []byte) {
	dir, name := c.entryPath(k)
	if c.mkdir(dir) != nil {
		return
	}
	if writeAtomic(dir, name, data) == nil {
		c.written.Add(1)
		c.bytes.Add(int64(len(data)))
	}
}

// mkdir makes an entry folder, once per run.
func (c *Cache) mkdir(dir string) error {
	if _, ok := c.made.Load(dir); ok {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	c.made.Store(dir, true)
	return nil
}

// writeAtomic writes data to a temporary file in dir and renames it to
// name, so no reader ever sees part of it. There is no fsync: an entry
// cut short by a crash fails its length or checksum and is written again.
func writeAtomic(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Lookup returns the sound entry of the file sf whose bytes hash to sum,
// counting a hit, or nil, counting a miss (and a damaged entry as corrupt).
// A hit sets sf's line table.
func (c *Cache) Lookup(sf *source.File, sum *[32]byte) *parser.File {
	k := c.key(sf.Name(), sum)
	f, found := c.load(&k, sf)
	if f != nil {
		c.hits.Add(1)
		return f
	}
	if found {
		c.corrupt.Add(1)
	}
	c.misses.Add(1)
	return nil
}

// Store writes the entry of f, the parse of a file whose bytes hash to
// sum. Failure only means the next run parses the file again.
func (c *Cache) Store(sum *[32]byte, f *parser.File) {
	k := c.key(f.Path, sum)
	if data, err := encodeEntry(&k, f); err == nil {
		c.storeEntry(&k, data)
	}
}

// Finish prunes the cache when this run wrote to it (and no run did so
// lately): call it once a run is done with the cache.
func (c *Cache) Finish() {
	if c.written.Load() > 0 {
		c.maybePrune()
	}
}

// Stats reports what the cache did so far; files is the number of files
// the run read.
func (c *Cache) Stats(files int) Stats {
	return Stats{
		Files: files, Hits: int(c.hits.Load()), Misses: int(c.misses.Load()),
		Corrupt: int(c.corrupt.Load()), Written: int(c.written.Load()),
		Bytes: c.bytes.Load(), Pruned: c.pruned, Result: c.result,
	}
}

// Overlaps reports whether the root and the cache folder contain one
// another: the cache is never kept inside a tree, and a tree that holds
// it is read without it. Both are compared with their links followed, so
// neither a root that is a link to a folder holding the cache nor a cache
// folder given through a link into the tree escapes the rule. A path that
// cannot be resolved counts as an overlap.
func (c *Cache) Overlaps(root string) bool {
	r, err := resolve(root, 0)
	if err != nil {
		return true
	}
	d, err := resolve(c.dir, 0)
	if err != nil {
		return true
	}
	within := func(a, b string) bool { // a inside b (or equal)
		rel, err := filepath.Rel(b, a)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	return within(d, r) || within(r, d)
}

// resolve is the absolute form of p with every link followed. The cache
// folder need not exist yet (it is made by the first entry written): the
// part of p that does not exist is kept as written, after its longest
// existing folder resolved, and a link to a missing folder is followed to
// where that folder would be made.
func resolve(p string, links int) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for {
		r, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if to, lerr := os.Readlink(abs); lerr == nil {
			if links++; links > 255 {
				return "", errors.New("too many links")
			}
			if !filepath.IsAbs(to) {
				dir, err := resolve(filepath.Dir(abs), links)
				if err != nil {
					return "", err
				}
				to = filepath.Join(dir, to)
			}
			return resolve(filepath.Join(to, rest), links)
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return filepath.Join(abs, rest), nil
		}
		rest = filepath.Join(filepath.Base(abs), rest)
		abs = parent
	}
}

// maybePrune prunes when no run did in the last pruneEvery, or when this
// run wrote a sixteenth of the bound.
func (c *Cache) maybePrune() {
	mark := filepath.Join(c.dir, "last-prune")
	st, err := os.Stat(mark)
	if err == nil && time.Since(st.ModTime()) < pruneEvery && c.bytes.Load() < c.maxBytes/16 {
		return
	}
	if err := writeAtomic(c.dir, mark, nil); err != nil {
		return
	}
	tag := filepath.Join(c.dir, "CACHEDIR.TAG")
	if _, err := os.Stat(tag); err != nil {
		writeAtomic(c.dir, tag, []byte("Signature: 8a477f597d28d172789f06886806bc55\n# seg's parse cache; see docs/performance.md. Safe to delete.\n"))
	}
	c.pruned = Prune(c.dir, c.maxBytes)
}

// Prune removes the least recently used entries under dir (a cache's
// Dir) until they take at most three quarters of maxBytes, when they take
// more than maxBytes; and temporary files older than an hour. It returns
// how many entries it removed. Entries another process is reading stay
// readable to it (an open file outlives its name), and one removed before
// it was opened is a miss: pruning never changes a result.
func Prune(dir string, maxBytes int64) int {
	type entry struct {
		name string
		size int64
		mod  time.Time
	}
	var all []entry
	var total int64
	subs, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	for _, s := range subs {
		if !s.IsDir() || len(s.Name()) != 2 {
			continue
		}
		sd := filepath.Join(dir, s.Name())
		ents, err := os.ReadDir(sd)
		if err != nil {
			continue
		}
		for _, e := range ents {
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			name := filepath.Join(sd, e.Name())
			if strings.HasPrefix(e.Name(), ".tmp-") {
				if time.Since(info.ModTime()) > tempAge {
					os.Remove(name)
				}
				continue
			}
			all = append(all, entry{name, info.Size(), info.ModTime()})
			total += info.Size()
		}
	}
	if total <= maxBytes {
		return 0
	}
	slices.SortFunc(all, func(a, b entry) int { return a.mod.Compare(b.mod) })
	removed := 0
	for _, e := range all {
		if total <= maxBytes/4*3 {
			break
		}
		if err := os.Remove(e.name); err == nil || errors.Is(err, os.ErrNotExist) {
			total -= e.size
			removed++
		}
	}
	return removed
}

// readEntry reads an entry and its modification time.
func readEntry(name string) ([]byte, time.Time, error) {
	buf, st, err := safefile.ReadInto(name, nil, 1<<40)
	if errors.Is(err, safefile.ErrNotRegular) || errors.Is(err, safefile.ErrTooLarge) {
		return nil, time.Time{}, errors.New("cache: not an entry")
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	return buf, st.ModTime(), nil
}
