package check

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
)

// List lists the tree at root as a check with the configuration cfg
// reads it, without reading any file (seg check --list-files). A nil cfg
// is the default configuration.
func List(root string, cfg *config.Config) (*Listing, error) {
	pc, np := split(cfg)
	return listSphinx(root, pc, np)
}

// split is cfg's parser configuration and sphinx-needs project: the
// default configuration and none for a nil cfg.
func split(cfg *config.Config) (*parser.Config, *needs.Project) {
	if cfg == nil || cfg.Parser == nil {
		return parser.DefaultConfig(), nil
	}
	return cfg.Parser, cfg.Needs
}

// Listed is the listing of the tree's last run, nil before one.
func (t *Tree) Listed() *Listing { return t.listed }

// Paths are the slash paths of the files read.
func (l *Listing) Paths() []string {
	out := make([]string, len(l.Files))
	for i, f := range l.Files {
		out[i] = f.Path
	}
	return out
}

// why is the reason a read file is read.
func (l *Listing) why() string {
	if l.Project == nil {
		return "under the root (no Sphinx conf.py: the whole tree is read)"
	}
	if l.Project.Dir == "" {
		return "in the Sphinx source folder (the root)"
	}
	return "in the Sphinx source folder " + l.Project.Dir
}

// reason says why a left-out file is left out.
func (l *Listing) reason(lo LeftOut) string {
	switch lo.Why {
	case Outside:
		return "outside the Sphinx source folder " + l.Project.Dir + " (Sphinx does not read it)"
	case Nested:
		return "in another Sphinx project, " + lo.Other + " (it has its own conf.py): seg check " + lo.Other + " reads it"
	case Excluded:
		return fmt.Sprintf("excluded by %q (%s)", lo.Other, l.excludeSource(lo.Other))
	case NotIncluded:
		return "matched by no include_patterns of " + l.Project.Conf
	}
	return ""
}

// excludeSource says where an exclusion pattern comes from.
func (l *Listing) excludeSource(pat string) string {
	for _, s := range sphinxExcluded {
		if s == pat {
			return "Sphinx never reads it"
		}
	}
	return "exclude_patterns, templates_path or html_static_path of " + l.Project.Conf
}

// Write prints the listing: how the source folder was found, what of the
// conf.py seg could not honour, every file read, then every document
// left out, each with why. Paths are relative to the root.
func (l *Listing) Write(w io.Writer) error {
	var b strings.Builder
	if p := l.Project; p != nil {
		dir := p.Dir
		if dir == "" {
			dir = "."
		}
		fmt.Fprintf(&b, "# source folder: %s (%s)\n", dir, p.Found)
		if p.Conf != "" {
			fmt.Fprintf(&b, "# conf.py: %s\n", p.Conf)
		}
		fmt.Fprintf(&b, "# document suffixes: %s\n", strings.Join(l.suffixes(), " "))
		if p.Encoding != "" {
			fmt.Fprintf(&b, "# source encoding: %s\n", p.Encoding)
		}
		for _, n := range p.Notes {
			fmt.Fprintf(&b, "# note: %s\n", n)
		}
	} else {
		fmt.Fprintf(&b, "# source folder: . (no Sphinx conf.py in the usual places)\n")
		fmt.Fprintf(&b, "# document suffixes: %s\n", strings.Join(l.suffixes(), " "))
	}
	why := l.why()
	for _, f := range l.Files {
		fmt.Fprintf(&b, "read %s: %s\n", f.Path, why)
	}
	for _, u := range l.Unlisted {
		fmt.Fprintf(&b, "unreadable %s: %v\n", u.Path, u.Err)
	}
	for _, lo := range l.Left {
		fmt.Fprintf(&b, "skip %s: %s\n", lo.Path, l.reason(lo))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Note is the one line that says what of the tree a check leaves out of
// what it would read without a Sphinx project (other Sphinx projects,
// documents outside the source folder) and how to read it; "" when
// nothing is. Documents Sphinx's exclusions name are not in it: the
// project says to leave them out.
func (l *Listing) Note() string {
	projects := map[string]int{}
	outside := 0
	left := 0
	for _, lo := range l.Left {
		if l.included[lo.Path] {
			continue // read after all, through an include
		}
		if lo.Why == Nested || lo.Why == Outside {
			left++
		}
		switch lo.Why {
		case Nested:
			projects[lo.Other]++
		case Outside:
			outside++
		}
	}
	var parts []string
	if len(projects) > 0 {
		names := make([]string, 0, len(projects))
		n := 0
		for p, c := range projects {
			names = append(names, p)
			n += c
		}
		sort.Strings(names)
		ex := names[0]
		list := strings.Join(names[:min(3, len(names))], ", ")
		if len(names) > 3 {
			list += ", …"
		}
		parts = append(parts, fmt.Sprintf("%d in %d other Sphinx project%s with a conf.py of their own (%s; seg check %s reads one)",
			n, len(names), plural(len(names)), list, ex))
	}
	if outside > 0 {
		parts = append(parts, fmt.Sprintf("%d outside the Sphinx source folder %s, which Sphinx does not read (include them from a document, or check their folder as its own root)",
			outside, l.Project.Dir))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("left out %d document%s: %s; seg check --list-files lists them", left, plural(left), strings.Join(parts, "; "))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
