package parser

import "testing"

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"drafts", "drafts", true},
		{"drafts", "sub/drafts", false},
		{"**/drafts", "sub/drafts", true},
		{"**/drafts", "drafts", true},
		{"**/*.rst", "a/b/c.rst", true},
		{"a/**/c.rst", "a/c.rst", true},
		{"a/**/c.rst", "a/x/y/c.rst", true},
		{"a/*/c.rst", "a/x/y/c.rst", false},
		{"a/**", "a/x/y", true},
		{"[", "[", false},
	}
	for _, tt := range tests {
		if got := excluded([]string{tt.glob}, tt.path); got != tt.want {
			t.Errorf("excluded(%q, %q) = %v", tt.glob, tt.path, got)
		}
	}
}
