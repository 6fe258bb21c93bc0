package revref

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"slices"
	"sort"
	"strings"
)

// The revision of a node, from the canonical form docs/revisions.md
// documents: 16 hex digits, the first 64 bits of the SHA-256 of the
// canonical document.

func fingerprint(doc string) string {
	sum := sha256.Sum256([]byte(doc))
	return hex.EncodeToString(sum[:8])
}

// TextDocument is the node's canonical document.
func (n *Node) TextDocument() string {
	var b strings.Builder
	b.WriteString("seg-revision 1\n")
	b.WriteString("kind " + n.Kind.String() + "\n")
	b.WriteString("id " + n.ID + "\n")
	var title []string
	for _, t := range n.Title {
		if t = strings.Trim(t, " \t"); t != "" {
			title = append(title, t)
		}
	}
	b.WriteString("title " + strings.Join(title, " ") + "\n")
	var opts []string
	for _, o := range n.Options {
		if _, link := linkOptions[o.Name]; link || o.Name == "id" {
			continue
		}
		opts = append(opts, "option "+o.Name+" "+o.Value()+"\n")
	}
	slices.Sort(opts)
	for _, o := range opts {
		b.WriteString(o)
	}
	b.WriteString("body\n")
	for _, l := range canonicalBody(n.content) {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// canonicalBody is content as the revision sees it: indentation measured
// with tabs expanded to 8 columns and the common part removed, the rest of
// each line as written, trailing white space and leading and trailing
// blank lines dropped, runs of blank lines taken as one.
func canonicalBody(lines []string) []string {
	type line struct {
		width int
		rest  string
	}
	var ls []line
	common := -1
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		width, i := 0, 0
		for ; i < len(l) && (l[i] == ' ' || l[i] == '\t'); i++ {
			if l[i] == '\t' {
				width = width/8*8 + 8
			} else {
				width++
			}
		}
		ls = append(ls, line{width, l[i:]})
		if l != "" && (common < 0 || width < common) {
			common = width
		}
	}
	var out []string
	for _, l := range ls {
		if l.rest == "" {
			if len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
			continue
		}
		out = append(out, strings.Repeat(" ", l.width-common)+l.rest)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// Revision is the node's revision: its text's, or for an implementation
// with :source:, the fingerprint of its text's revision and its files.
func (t *Tree) Revision(n *Node) string {
	text := fingerprint(n.TextDocument())
	src := n.opt("source")
	if n.Kind != Implementation || src == nil {
		return text
	}
	var b strings.Builder
	b.WriteString("seg-revision 1 implementation\n")
	b.WriteString("text " + text + "\n")
	// Every file the entries match, once, sorted by path (revisions.md);
	// then each entry that matches nothing, in the order written.
	seen := map[string]bool{}
	var all, missing []string
	for _, e := range src.Entries {
		files := t.match(e.Text)
		if len(files) == 0 {
			missing = append(missing, e.Text)
		}
		for _, f := range files {
			if !seen[f] {
				seen[f] = true
				all = append(all, f)
			}
		}
	}
	sort.Strings(all)
	for _, f := range all {
		sum := sha256.Sum256([]byte(t.Files[f]))
		b.WriteString("source " + f + " " + hex.EncodeToString(sum[:]) + "\n")
	}
	for _, m := range missing {
		b.WriteString("source " + m + " missing\n")
	}
	return fingerprint(b.String())
}

// match lists, sorted, the files a :source: entry names: a file, a folder
// (every file under it, hidden names skipped unless the entry names them)
// or a glob (*, ? and [...] within a segment, ** any number of segments;
// a hidden name only where the pattern's segment starts with a dot).
func (t *Tree) match(entry string) []string {
	var out []string
	pat := strings.Split(entry, "/")
	for _, f := range t.Sources {
		switch {
		case f == entry:
			out = append(out, f)
		case strings.HasPrefix(f, entry+"/") && !hidden(f[len(entry)+1:]):
			out = append(out, f)
		case strings.ContainsAny(entry, "*?[") && globMatch(pat, strings.Split(f, "/")):
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

func hidden(rel string) bool {
	for _, s := range strings.Split(rel, "/") {
		if strings.HasPrefix(s, ".") {
			return true
		}
	}
	return false
}

func globMatch(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if i > 0 && strings.HasPrefix(name[i-1], ".") {
				return false
			}
			if globMatch(pat[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	if strings.HasPrefix(name[0], ".") && !strings.HasPrefix(pat[0], ".") {
		return false
	}
	ok, err := path.Match(pat[0], name[0])
	return err == nil && ok && globMatch(pat[1:], name[1:])
}
