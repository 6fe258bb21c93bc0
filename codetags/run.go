package codetags

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/seg-trace/seg/internal/chunks"
	"github.com/seg-trace/seg/internal/safefile"
)

// Store remembers what the scan of a file found, by the file's identity
// (package cache's CodeTags): a file whose identity is what it was is not
// read again.
type Store interface {
	Get(abs string, st fs.FileInfo) ([]byte, bool)
	Put(abs string, st fs.FileInfo, entry []byte)
}

// Input is one scan of a tree.
type Input struct {
	Root     string
	Listing  Listing
	Settings *Settings
	// Store, when not nil, remembers scans across runs.
	Store Store
	// Overlay, when not nil, gives the text of files open in an editor in
	// place of the disk's.
	Overlay func(rel string) ([]byte, bool)
}

// Scanned is one file that holds tags.
type Scanned struct {
	Path string
	// Sum is the hex SHA-256 of the file's bytes.
	Sum  string
	Tags []Tag
}

// Result is what a scan found.
type Result struct {
	Files  []Scanned // the files with tags, by path
	Listed Listed
	// Read is how many files were read (the rest came from the store).
	Read int
}

// Scan lists the tree and scans every file listed, on every core. A
// binary file (a NUL byte in its first 8000 bytes) holds no tags.
func Scan(in Input) Result {
	listed := in.Listing.List()
	res := Result{Listed: listed}
	found := make([]Scanned, len(listed.Files))
	errs := make([]error, len(listed.Files))
	read := make([]bool, len(listed.Files))
	chunks.Run(len(listed.Files), 64, func(lo, hi int) {
		var buf []byte
		for i := lo; i < hi; i++ {
			found[i], read[i], buf, errs[i] = in.file(listed.Files[i], buf)
		}
	})
	for i, f := range found {
		if errs[i] != nil {
			res.Listed.Unreadable = append(res.Listed.Unreadable, Unreadable{Path: listed.Files[i], Err: errs[i]})
			continue
		}
		if read[i] {
			res.Read++
		}
		if len(f.Tags) > 0 {
			res.Files = append(res.Files, f)
		}
	}
	return res
}

// file scans one file, through the store when there is one; buf is a
// buffer to read into (returned, perhaps grown, for the next file).
func (in *Input) file(rel string, buf []byte) (s Scanned, read bool, _ []byte, err error) {
	s.Path = rel
	if in.Overlay != nil {
		if text, ok := in.Overlay(rel); ok {
			return in.scanBytes(rel, text), true, buf, nil
		}
	}
	abs := filepath.Join(in.Root, filepath.FromSlash(rel))
	var st fs.FileInfo
	if in.Store != nil {
		if st, err = os.Stat(abs); err != nil {
			return s, false, buf, err
		}
		if e, ok := in.Store.Get(abs, st); ok {
			if d, ok := decodeEntry(rel, e); ok {
				return d, false, buf, nil
			}
		}
	}
	data, err := readInto(abs, buf)
	if err == errBinary {
		s.Tags = nil
		if in.Store != nil {
			in.Store.Put(abs, st, encodeEntry(s))
		}
		return s, true, data[:0], nil
	}
	if err != nil {
		return s, true, buf, err
	}
	s = in.scanBytes(rel, data)
	if in.Store != nil {
		in.Store.Put(abs, st, encodeEntry(s))
	}
	return s, true, data[:0], nil
}

// readInto reads the file name into buf's storage (grown when short).
func readInto(name string, buf []byte) ([]byte, error) {
	f, st, err := safefile.Open(name) // never blocks on a FIFO
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf = buf[:0]
	if int64(cap(buf)) < st.Size()+1 {
		buf = make([]byte, 0, st.Size()+512)
	}
	checked := false
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		// A binary file is known by its start: the rest is not read.
		if !checked && (len(buf) >= 8000 || err == io.EOF) {
			checked = true
			if isBinary(buf) {
				return buf, errBinary
			}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// errBinary is a file that holds a NUL byte in its first 8000 bytes.
var errBinary = errors.New("binary file")

func (in *Input) scanBytes(rel string, data []byte) Scanned {
	s := Scanned{Path: rel}
	if isBinary(data) {
		return s
	}
	s.Tags = in.Settings.Scan(rel, data)
	if len(s.Tags) > 0 {
		sum := sha256.Sum256(data)
		s.Sum = hex.EncodeToString(sum[:])
	}
	return s
}

// Key is what the settings look for, for a store's name: scans under other
// settings are other entries.
func (s *Settings) Key() string {
	var b strings.Builder
	b.WriteString("codetags-v1\n")
	for _, n := range Syntaxes {
		fmt.Fprintf(&b, "%s %v\n", n, s.Syntaxes[n])
	}
	for _, re := range s.Custom {
		fmt.Fprintf(&b, "custom %q\n", re.String())
	}
	write := func(a *CodelinksAnalyse) {
		fmt.Fprintf(&b, "analyse %v %q %v %v %q %q %q\n", a.NeedIDRefs, a.Markers, a.OneLine, a.styleSet, a.Style.Start, a.Style.End, a.Style.Split)
		for _, f := range a.Style.Fields {
			d := "-"
			if f.Default != nil {
				d = *f.Default
			}
			fmt.Fprintf(&b, "field %q %v %v %q\n", f.Name, f.List, f.HasDefault, d)
		}
	}
	write(&s.Default)
	for i := range s.Codelinks {
		fmt.Fprintf(&b, "project %q\n", s.Codelinks[i].Dir)
		write(&s.Codelinks[i].Analyse)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

// encodeEntry writes a file's scan compactly: the sum, then each tag.
func encodeEntry(s Scanned) []byte {
	var b []byte
	str := func(v string) {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	num := func(v int) { b = binary.AppendUvarint(b, uint64(v)) }
	str(s.Sum)
	num(len(s.Tags))
	for _, t := range s.Tags {
		str(t.Syntax)
		str(t.Marker)
		num(t.Line)
		num(t.Col)
		str(t.NeedID)
		str(t.Title)
		str(t.Type)
		str(t.Problem)
		num(len(t.Refs))
		for _, r := range t.Refs {
			str(r.ID)
			num(r.Line)
			num(r.Col)
		}
	}
	return b
}

var errShort = errors.New("short entry")

func decodeEntry(rel string, b []byte) (s Scanned, ok bool) {
	var err error
	// The IDs and titles are cut from one copy of the entry: one
	// allocation a file, not one a string.
	whole := string(b)
	at := func() int { return len(whole) - len(b) }
	num := func() int {
		if err != nil {
			return 0
		}
		v, n := binary.Uvarint(b)
		if n <= 0 || v > uint64(len(b))+1<<31 {
			err = errShort
			return 0
		}
		b = b[n:]
		return int(v)
	}
	str := func() string {
		n := num()
		if err != nil || n > len(b) {
			err = errShort
			return ""
		}
		v := whole[at() : at()+n]
		b = b[n:]
		return v
	}
	// The syntax, marker, type and problem of tags repeat: one string
	// each, not one per tag.
	seen := map[string]string{}
	common := func() string {
		n := num()
		if err != nil || n > len(b) {
			err = errShort
			return ""
		}
		v, ok := seen[string(b[:n])]
		if !ok {
			v = string(b[:n])
			seen[v] = v
		}
		b = b[n:]
		return v
	}
	s.Path = rel
	s.Sum = str()
	n := num()
	if err != nil || n > len(b) {
		return s, false
	}
	s.Tags = make([]Tag, 0, n)
	for range n {
		t := Tag{Syntax: common(), Marker: common(), Line: num(), Col: num(), NeedID: str(), Title: str(), Type: common(), Problem: common()}
		k := num()
		if err != nil || k > len(b) {
			return s, false
		}
		t.Refs = make([]Ref, 0, k)
		for range k {
			t.Refs = append(t.Refs, Ref{ID: str(), Line: num(), Col: num()})
		}
		s.Tags = append(s.Tags, t)
	}
	return s, err == nil && len(b) == 0
}

// CompileCustom compiles a team's expression: it must have exactly one
// capture group.
func CompileCustom(expr string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	if re.NumSubexp() != 1 {
		return nil, fmt.Errorf("it has %d capture groups; it needs exactly one, the list of IDs", re.NumSubexp())
	}
	return re, nil
}
