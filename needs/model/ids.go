package model

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// HashedID is the ID sphinx-needs gives a need written without one (where
// the project does not require IDs): the prefix of its type, then the
// upper-case hex SHA-1 of its full title, or of its content when it has
// no title, cut to length characters. With id_from_title the title,
// upper-cased and with spaces made underscores, and "_" come before the
// hash, and the cut includes them.
func HashedID(prefix, fullTitle, content string, length int, fromTitle bool) string {
	text := fullTitle
	if text == "" {
		text = content
	}
	sum := sha1.Sum([]byte(text))
	hashed := strings.ToUpper(hex.EncodeToString(sum[:]))
	if fromTitle {
		hashed = strings.ReplaceAll(strings.ToUpper(fullTitle), " ", "_") + "_" + hashed
	}
	if length >= 0 && utf8.RuneCountInString(hashed) > length {
		hashed = string([]rune(hashed)[:length])
	}
	return prefix + hashed
}

// FirstSentence is what sphinx-needs' title_from_content takes of a
// need's content: the text before the first "." or line break.
func FirstSentence(content string) string {
	if i := strings.IndexAny(content, ".\n"); i >= 0 {
		return content[:i]
	}
	return content
}

// TrimTitle trims a title taken from the content to max characters, the
// last three of them "..." (max -1: no limit).
func TrimTitle(title string, max int) string {
	n := utf8.RuneCountInString(title)
	switch {
	case max < 0 || n <= max:
		return title
	case max <= 3:
		return string([]rune(title)[:max])
	}
	return string([]rune(title)[:max-3]) + "..."
}

// Boolean reads a flag option as sphinx-needs does (true, yes, 1 or no
// value; false, no, 0), in any case; ok is false for anything else.
func Boolean(v string) (b, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "1":
		return true, true
	case "false", "no", "0":
		return false, true
	}
	return false, false
}
