package report

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A long line is shown as a window around the caret, "…" where it is cut,
// never whole; the caret stays under the span it marks.
func TestSnippetWindow(t *testing.T) {
	var ids []string
	for i := range 80 {
		ids = append(ids, "REQ_"+strings.Repeat("X", 3)+string(rune('A'+i%26)))
	}
	line := "   :links: " + strings.Join(ids, ", ")
	target := "REQ_XXXQ"
	col := strings.Index(line, target)
	w := snippetWindow([]byte(line), col, len(target))
	if n := utf8.RuneCountInString(w.text); n > snippetWidth+2 {
		t.Errorf("window of %d characters: %q", n, w.text)
	}
	if !strings.HasPrefix(w.text, "…") || !strings.HasSuffix(w.text, "…") {
		t.Errorf("a window cut at both ends is not marked: %q", w.text)
	}
	shown := []rune(w.text)
	if got := string(shown[len(w.before) : len(w.before)+w.width]); got != target {
		t.Errorf("the caret is under %q, want %q", got, target)
	}
	// The start and the end of a line: cut on one side only.
	if w := snippetWindow([]byte(line), 11, 8); strings.HasPrefix(w.text, "…") || !strings.HasSuffix(w.text, "…") || string([]rune(w.text)[len(w.before):len(w.before)+8]) != ids[0] {
		t.Errorf("start of the line: %q (caret after %d)", w.text, len(w.before))
	}
	end := len(line) - 8
	if w := snippetWindow([]byte(line), end, 8); !strings.HasPrefix(w.text, "…") || strings.HasSuffix(w.text, "…") || string([]rune(w.text)[len(w.before):len(w.before)+8]) != ids[len(ids)-1] {
		t.Errorf("end of the line: %q", w.text)
	}
	// A short line is shown whole.
	if w := snippetWindow([]byte("   :links: A, B"), 11, 1); w.text != "   :links: A, B" || len(w.before) != 11 {
		t.Errorf("short line: %+v", w)
	}
}
