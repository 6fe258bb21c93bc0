package check

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The encodings seg decodes besides UTF-8, by the canonical name
// normaliseEncoding gives them.
const (
	encLatin1 = "latin-1"
	encCP1252 = "cp1252"
	encUTF16  = "utf-16"
	encUTF16L = "utf-16-le"
	encUTF16B = "utf-16-be"
)

// normaliseEncoding is the canonical name of a Python codec name (as
// conf.py's source_encoding gives it) among those seg decodes: "" for
// UTF-8 and ASCII (which seg reads as UTF-8). ok is false for a codec seg
// does not decode.
func normaliseEncoding(name string) (enc string, ok bool) {
	n := strings.NewReplacer("_", "-", " ", "-").Replace(strings.ToLower(strings.TrimSpace(name)))
	switch n {
	case "utf-8", "utf8", "u8", "utf", "utf-8-sig", "utf8-sig", "cp65001", "ascii", "us-ascii", "646":
		return "", true
	case "latin-1", "latin1", "latin", "l1", "iso-8859-1", "iso8859-1", "8859", "cp819", "iso-ir-100":
		return encLatin1, true
	case "cp1252", "windows-1252":
		return encCP1252, true
	case "utf-16", "utf16", "u16":
		return encUTF16, true
	case "utf-16-le", "utf-16le", "utf16le":
		return encUTF16L, true
	case "utf-16-be", "utf-16be", "utf16be":
		return encUTF16B, true
	}
	return "", false
}

// cp1252High are the characters of Windows-1252 at 0x80..0x9F (0 where
// the code page has none: Python refuses those bytes, seg keeps them as
// Latin-1 does).
var cp1252High = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// decodeSource returns a file's bytes as UTF-8 text: a file that starts
// with a UTF-16 byte order mark is UTF-16 whatever enc says (docutils
// reads it so); otherwise enc (normaliseEncoding's) decides. A UTF-8
// file, and one seg cannot decode, is returned as it is: the parser
// drops a UTF-8 BOM and refuses what is not UTF-8 (invalid-encoding).
func decodeSource(src []byte, enc string) []byte {
	switch {
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		return decodeUTF16(src[2:], false, src)
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}):
		return decodeUTF16(src[2:], true, src)
	}
	switch enc {
	case encLatin1, encCP1252:
		ascii := true
		for _, c := range src {
			if c >= 0x80 {
				ascii = false
				break
			}
		}
		if ascii {
			return src
		}
		out := make([]byte, 0, len(src)+len(src)/4)
		for _, c := range src {
			r := rune(c)
			if enc == encCP1252 && c >= 0x80 && c < 0xA0 && cp1252High[c-0x80] != 0 {
				r = cp1252High[c-0x80]
			}
			out = utf8.AppendRune(out, r)
		}
		return out
	case encUTF16, encUTF16L:
		// Python's utf-16 without a BOM reads little-endian.
		return decodeUTF16(src, false, src)
	case encUTF16B:
		return decodeUTF16(src, true, src)
	}
	return src
}

// decodeUTF16 decodes b as UTF-16; bytes that are not UTF-16 (an odd
// length, a lone surrogate) leave the file as it was (orig), which is
// then invalid-encoding, as Python's codec fails on them.
func decodeUTF16(b []byte, bigEndian bool, orig []byte) []byte {
	if len(b)%2 != 0 {
		return orig
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		if bigEndian {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	for i := 0; i < len(u); i++ {
		switch {
		case u[i] >= 0xD800 && u[i] < 0xDC00:
			if i+1 >= len(u) || u[i+1] < 0xDC00 || u[i+1] >= 0xE000 {
				return orig
			}
			i++
		case u[i] >= 0xDC00 && u[i] < 0xE000:
			return orig
		}
	}
	return []byte(string(utf16.Decode(u)))
}
