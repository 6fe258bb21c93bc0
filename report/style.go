package report

import "github.com/fatih/color"

// style holds the colors of the text formats. Each color is created with
// its own enable switch, so the caller's decision holds whatever
// fatih/color guessed about stdout.
type style struct {
	err, warn, note, ok, bad, id, pos, dim, bold func(a ...any) string
}

func newStyle(enabled bool) style {
	mk := func(attrs ...color.Attribute) func(a ...any) string {
		c := color.New(attrs...)
		if enabled {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c.SprintFunc()
	}
	return style{
		err:  mk(color.FgRed, color.Bold),
		warn: mk(color.FgYellow, color.Bold),
		note: mk(color.FgCyan),
		ok:   mk(color.FgGreen, color.Bold),
		bad:  mk(color.FgRed, color.Bold),
		id:   mk(color.FgMagenta),
		pos:  mk(color.Bold),
		dim:  mk(color.Faint),
		bold: mk(color.Bold),
	}
}

func (s style) severity(sev string) string {
	switch sev {
	case "error":
		return s.err(sev)
	case "warning":
		return s.warn(sev)
	}
	return s.note(sev)
}

// caret colors the carets under a snippet as the severity word above them:
// red under an error, yellow under a warning.
func (s style) caret(sev, carets string) string {
	if sev == "warning" {
		return s.warn(carets)
	}
	return s.err(carets)
}

func (s style) verdict(satisfied bool) string {
	if satisfied {
		return s.ok("satisfied")
	}
	return s.bad("unsatisfied")
}

// status colors a requirement's status: green satisfied, red failing,
// yellow unproven.
func (s style) status(status string) string {
	switch status {
	case "satisfied":
		return s.ok(status)
	case "failing":
		return s.bad(status)
	}
	return s.warn(status)
}
