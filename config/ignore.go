package config

import (
	"fmt"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/glob"
)

// Ignore is one [[check.ignore]] table: the findings of Codes in the
// files Paths match are known and accepted, for Reason (docs/check.md,
// "Suppressing a finding"). They are listed as suppressed, not counted.
type Ignore struct {
	Paths  []string
	Codes  []string
	Reason string
	// Line is the line of the table's header.
	Line int
}

type ignoreRule struct {
	Paths  []string `toml:"paths"`
	Codes  []string `toml:"codes"`
	Reason string   `toml:"reason"`
}

// readIgnores reads the [[check.ignore]] tables. Each needs paths, codes
// that seg has and a reason: a suppression nobody can account for, or
// one that names a code seg never reports, is refused rather than kept.
func (c *Config) readIgnores(f *fileFormat) error {
	if f.Check == nil || len(f.Check.Ignore) == 0 {
		return nil
	}
	headers := tableLines(c.Raw, "check.ignore")
	for i, r := range f.Check.Ignore {
		line := 0
		if i < len(headers) {
			line = headers[i]
		}
		bad := func(format string, a ...any) error {
			return &Error{File: c.File, Line: line, Msg: "[[check.ignore]] " + fmt.Sprintf(format, a...)}
		}
		if len(r.Paths) == 0 {
			return bad("needs paths, a list of globs relative to the root (\"**\" is every file)")
		}
		for _, p := range r.Paths {
			if !glob.Valid(p) {
				return bad("path glob %q is malformed", p)
			}
		}
		if len(r.Codes) == 0 {
			return bad("needs codes, the list of the findings' codes it suppresses (docs/codes.md)")
		}
		for _, code := range r.Codes {
			if err := IgnorableCode(code); err != "" {
				return bad("%s", err)
			}
		}
		if strings.TrimSpace(r.Reason) == "" {
			return bad("needs a reason: why the findings are known and accepted")
		}
		c.Ignores = append(c.Ignores, Ignore{Paths: r.Paths, Codes: r.Codes, Reason: strings.TrimSpace(r.Reason), Line: line})
	}
	return nil
}

// IgnorableCode says why code cannot be suppressed ("" when it can): it
// must be a diagnostic code seg has, and not one that reports on the
// suppressions themselves or on seg's own failure.
func IgnorableCode(code string) string {
	c, ok := diag.Lookup(code)
	if !ok {
		var names []string
		for _, k := range diag.Codes() {
			names = append(names, k.Name)
		}
		return fmt.Sprintf("names the code %q, which seg does not have%s", code, diag.DidYouMean(code, names))
	}
	switch {
	case c.IsReason():
		return fmt.Sprintf("names %q, a verdict's reason: verdicts are never suppressed, only diagnostics", code)
	case c.Editor:
		return fmt.Sprintf("names %q, which only the language server reports", code)
	case code == "internal-error" || code == "bad-ignore" || code == "unused-ignore":
		return fmt.Sprintf("names %q, which cannot be suppressed", code)
	}
	return ""
}
