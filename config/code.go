package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seg-trace/seg/codetags"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/internal/glob"
)

// CodeConfig is seg.toml's [code] table: which source files are scanned
// for code tags and which tag syntaxes count (docs/codetags.md).
type CodeConfig struct {
	// Set says the table is there.
	Set bool
	// Paths are globs relative to the root; nil when not given (the whole
	// tree when the table is there).
	Paths []string
	// Tags are the built-in syntaxes scanned for (all when not given).
	Tags []string
	// Custom are a team's own regular expressions, each with one capture
	// group: the list of IDs.
	Custom []string
	// Line is the line of the [code] header (0 when unknown).
	Line int
}

type codeSection struct {
	Paths  []string `toml:"paths"`
	Tags   []string `toml:"tags"`
	Custom []string `toml:"custom"`
}

// readCode reads and checks the [code] table.
func (c *Config) readCode(f *fileFormat) error {
	if f.Code == nil {
		return nil
	}
	s := f.Code
	c.Code = CodeConfig{Set: true, Paths: s.Paths, Tags: s.Tags, Custom: s.Custom}
	for i, line := range strings.Split(string(c.Raw), "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "[code]") || strings.HasPrefix(t, "[ code ]") {
			c.Code.Line = i + 1
			break
		}
	}
	for _, p := range s.Paths {
		if !glob.Valid(p) || strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") {
			return &Error{File: c.File, Line: cfgfile.LineOfKey(c.Raw, "paths"),
				Msg: fmt.Sprintf("[code] paths entry %q is not a glob relative to the root", p)}
		}
	}
	for _, t := range s.Tags {
		if !slices.Contains(codetags.Syntaxes, t) {
			return &Error{File: c.File, Line: cfgfile.LineOfKey(c.Raw, "tags"),
				Msg: fmt.Sprintf("[code] tags: unknown tag syntax %q%s (want %s; a team's own goes in custom = [\"regex\"])", t,
					diag.DidYouMean(t, codetags.Syntaxes), strings.Join(codetags.Syntaxes, ", "))}
		}
	}
	for _, e := range s.Custom {
		if _, err := codetags.CompileCustom(e); err != nil {
			return &Error{File: c.File, Line: cfgfile.LineOfKey(c.Raw, "custom"),
				Msg: fmt.Sprintf("[code] custom expression %q: %v", e, err)}
		}
	}
	return nil
}
