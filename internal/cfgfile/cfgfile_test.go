package cfgfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// Read reads a regular file and says why it cannot read a missing one,
// without the path (the caller names the file).
func TestRead(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "seg.toml")
	if err := os.WriteFile(ok, []byte("[check]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(ok); err != nil || string(data) != "[check]\n" {
		t.Errorf("Read(regular) = %q, %v", data, err)
	}
	if _, err := Read(filepath.Join(dir, "none.toml")); !errors.Is(err, os.ErrNotExist) || strings.Contains(err.Error(), dir) {
		t.Errorf("Read(missing) = %v, want the bare not-exist error", err)
	}
	if Present(filepath.Join(dir, "none.toml")) {
		t.Error("Present(missing) = true")
	}
}

// The helpers place a finding on the line the file has it on, and say 0
// rather than guess.
func TestLines(t *testing.T) {
	data := []byte(`# seg.toml
[check]
fail_on = "errors"
"quoted" = 1

[needs.types]
req = { title = "Requirement", prefix = "REQ-" }

[needs.links]
satisfies = ["satisfies", "satisfied by"]

[[needs.extra]]
name = "one"
[[needs.extra]]
name = "two"
`)
	for _, tt := range []struct {
		what      string
		got, want int
	}{
		{"LineOfKey table", LineOfKey(data, "[check]"), 2},
		{"LineOfKey key", LineOfKey(data, "fail_on"), 3},
		{"LineOfKey quoted key", LineOfKey(data, "quoted"), 4},
		{"LineOfKey absent", LineOfKey(data, "absent"), 0},
		{"LineInSection", LineInSection(data, "needs.links", "satisfies"), 10},
		{"LineInSection header", LineInSection(data, "needs.links", "absent"), 9},
		{"LineInSection no section", LineInSection(data, "absent", "x"), 0},
		{"LineOfValue", LineOfValue(data, "satisfies", "satisfied by"), 10},
		{"LineOfValue table", LineOfValue(data, "[needs.types]", "Requirement"), 7},
		{"NthLine", NthLine(data, "extra", 1), 14},
		{"NthLine first", NthLine(data, "extra", 0), 12},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: line %d, want %d", tt.what, tt.got, tt.want)
		}
	}
}

// A TOML file the decoder refuses is an Error on the line the decoder
// names, with a wrong type said as a TOML user knows it.
func TestDecodeError(t *testing.T) {
	var v struct {
		Needs struct{ Links map[string]string }
	}
	data := []byte("[needs.links]\nsatisfies = [\"a\", \"b\"]\n")
	_, err := toml.Decode(string(data), &v)
	if err == nil {
		t.Fatal("the decoder took a list for a string")
	}
	e := DecodeError("seg.toml", data, err)
	if e.Error() != "seg.toml:2: [needs.links] satisfies is a list ([...]); it takes a string (in quotes)" {
		t.Errorf("a wrong type: %v", e)
	}
	_, err = toml.Decode("a = \n", &v)
	if e := DecodeError("seg.toml", []byte("a = \n"), err); e.Line != 1 || e.File != "seg.toml" {
		t.Errorf("a syntax error: %+v", e)
	}
	if e := (&Error{File: "seg.toml", Msg: "m"}); e.Error() != "seg.toml: m" {
		t.Errorf("no line: %q", e.Error())
	}
	md, _ := toml.Decode("[a]\nz = 1\ny = 2\n[a.x]\nw = 3\n", &struct{}{})
	if got := strings.Join(TableKeys(md, "a"), ","); got != "z,y,x" {
		t.Errorf("TableKeys = %s, want z,y,x (file order, once each)", got)
	}
}
