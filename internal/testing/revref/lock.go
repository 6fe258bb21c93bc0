package revref

import (
	"fmt"
	"strings"
)

// Pin is one readable seg.lock line.
type Pin struct {
	Key      string // FROM LINK TO
	Revision string // lower case
	Line     int
}

// Lock is what the reference reads in seg.lock.
type Lock struct {
	Pins []Pin
	// Diags are "code seg.lock:line:col" for every line seg must report
	// on its own (invalid-pin, duplicate-pin); orphan pins need the graph.
	Diags []string
	// Hits counts what the reader met, for the test's coverage report.
	Hits map[string]int
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// ReadLock reads seg.lock as revisions.md says: fields separated by runs
// of spaces or tabs, leading and trailing blanks ignored, '#' first
// starts a comment, blank lines ignored, LF and CRLF line ends.
func ReadLock(text string) *Lock {
	l := &Lock{Hits: map[string]int{}}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	seen := map[string]bool{}
	for i, line := range lines {
		num := i + 1
		if strings.HasSuffix(line, "\r") {
			line = line[:len(line)-1]
			l.Hits["lock: CRLF line"]++
		}
		trimmed := strings.Trim(line, " \t")
		if trimmed == "" {
			continue
		}
		if trimmed[0] == '#' {
			continue
		}
		// Each field with its 1-based byte column.
		type field struct {
			text string
			col  int
		}
		var fs []field
		for j := 0; j < len(line); {
			if isBlank(line[j]) {
				j++
				continue
			}
			k := j
			for k < len(line) && !isBlank(line[k]) {
				k++
			}
			fs = append(fs, field{line[j:k], j + 1})
			j = k
		}
		bad := func(col int, why string) {
			l.Diags = append(l.Diags, fmt.Sprintf("invalid-pin seg.lock:%d:%d", num, col))
			l.Hits["invalid-pin: "+why]++
		}
		end := fs[len(fs)-1].col + len(fs[len(fs)-1].text)
		switch {
		case len(fs) >= 2 && linkOptions[fs[1].text] == nil:
			bad(fs[1].col, "unknown link")
			continue
		case len(fs) < 4:
			bad(end, "too few fields")
			continue
		case !isRevision(fs[3].text):
			bad(fs[3].col, "bad revision")
			continue
		case len(fs) > 4:
			why := "too many fields"
			if strings.HasPrefix(fs[4].text, "#") {
				why = "trailing comment"
			}
			bad(fs[4].col, why)
			continue
		}
		key := fs[0].text + " " + fs[1].text + " " + fs[2].text
		if seen[key] {
			// The spec names no column; seg shows the line's first field.
			l.Diags = append(l.Diags, fmt.Sprintf("duplicate-pin seg.lock:%d:%d", num, fs[0].col))
		}
		seen[key] = true
		l.Pins = append(l.Pins, Pin{Key: key, Revision: strings.ToLower(fs[3].text), Line: num})
	}
	return l
}

func isRevision(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}
