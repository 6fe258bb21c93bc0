package parser

import (
	"slices"
	"testing"
)

// The parts of sphinx-needs' own test of need parts (doc_need_parts):
// "(id)" gives the ID, otherwise the first three hex digits of the text's
// SHA-1, upper-cased; text that is no role (inside a word, in an inline
// literal) gives none.
func TestNeedParts(t *testing.T) {
	body := "The tool has these commands:\n\n* :need_part:`(1)exit()`\n* :need_part:`(2)start()`\n* :np:`(awesome_id)blub()`\n* :np:`unknown_id_1`\n\nNot a role: x:np:`(no)a` and ``:np:`(lit)`` are text.\n"
	got := NeedParts(body)
	want := []string{"1", "2", "awesome_id", partOf("unknown_id_1")}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("NeedParts = %q, want %q", got, want)
	}
	// Python: hashlib.sha1(b"unknown_id_1").hexdigest().upper()[:3]
	if p := partOf("unknown_id_1"); p != "5DA" {
		t.Errorf("hash part %q, want 5DA", p)
	}
	if NeedParts("no parts here") != nil {
		t.Error("parts in a body without roles")
	}
	if got := NeedParts(":np:`see it <target>` and :np:`a\\`b`"); !slices.Equal(got, []string{partOf("a`b"), partOf("see it")}) && !slices.Equal(got, []string{partOf("see it"), partOf("a`b")}) {
		t.Errorf("titles and escapes: %q", got)
	}
}
