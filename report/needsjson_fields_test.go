package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// needsJSONOf writes the files of a tree (slash paths), checks it and
// returns its needs.json as JSON values.
func needsJSONOf(t *testing.T, files map[string]string) map[string]any {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := WriteNeedsJSON(&buf, checkOfDir(t, root)); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// need is one need of a needs.json document.
func need(t *testing.T, doc map[string]any, id string) map[string]any {
	t.Helper()
	v, _ := doc["versions"].(map[string]any)[doc["current_version"].(string)].(map[string]any)
	n, ok := v["needs"].(map[string]any)[id].(map[string]any)
	if !ok {
		t.Fatalf("no need %s in %v", id, v["needs"])
	}
	return n
}

const fieldsRST = `
.. req:: Lock
   :id: REQ_1
   :links: REQ_3, REQ_2, REQ_3, REQ_2.p1

   All doors lock together.

   Above 15 km/h.

.. req:: Two
   :id: REQ_2

.. req:: Three
   :id: REQ_3
`

// needs.json's "project" and "current_version" are what sphinx-needs
// writes, conf.py's project and version, also when the need types come
// from a ubproject.toml (needs_from_toml, or one at the root beside
// docs/conf.py) whose [project] says nothing; "content" is the need's
// content, field for field as sphinx-needs 8 writes it.
func TestNeedsJSONProjectAndContent(t *testing.T) {
	conf := "extensions = [\"sphinx_needs\"]\nproject = \"Door control\"\nversion = \"2.1\"\nrelease = \"2.1.7\"\nneeds_from_toml = \"ubproject.toml\"\n"
	toml := "[needs]\ntypes = [{directive = \"req\", title = \"Requirement\", prefix = \"R_\"}]\n"
	for name, files := range map[string]map[string]string{
		"needs_from_toml":            {"docs/conf.py": conf, "docs/ubproject.toml": toml, "docs/index.rst": fieldsRST, "seg.toml": "allow_empty = true\n"},
		"ubproject.toml at the root": {"docs/conf.py": conf, "ubproject.toml": toml + "[project]\nsrcdir = \"docs\"\n", "docs/index.rst": fieldsRST, "seg.toml": "allow_empty = true\n"},
		"conf.py only": {"docs/conf.py": conf[:len(conf)-len("needs_from_toml = \"ubproject.toml\"\n")] + "needs_types = [dict(directive=\"req\", title=\"Requirement\", prefix=\"R_\")]\n",
			"docs/index.rst": fieldsRST, "seg.toml": "allow_empty = true\n"},
	} {
		doc := needsJSONOf(t, files)
		if doc["project"] != "Door control" || doc["current_version"] != "2.1" {
			t.Errorf("%s: project %v, current_version %v", name, doc["project"], doc["current_version"])
		}
		n := need(t, doc, "REQ_1")
		if want := "All doors lock together.\n\nAbove 15 km/h."; n["content"] != want {
			t.Errorf("%s: content %q, want %q", name, n["content"], want)
		}
		if n["docname"] != "index" || n["doctype"] != ".rst" {
			t.Errorf("%s: docname %v doctype %v", name, n["docname"], n["doctype"])
		}
		// No pin of sphinx-needs: links in source order, as written.
		if got := n["links"]; !reflect.DeepEqual(got, []any{"REQ_3", "REQ_2", "REQ_3", "REQ_2.p1"}) {
			t.Errorf("%s: links %v", name, got)
		}
	}
}

// A project that targets sphinx-needs 8.2 or later (seg.toml's [needs]
// sphinx_needs, or a pin in its requirements) gets each link list sorted,
// every entry once, as those versions write it; one that pins an older
// version keeps the order as written.
func TestNeedsJSONSortedLinks(t *testing.T) {
	base := map[string]string{"conf.py": "extensions = [\"sphinx_needs\"]\nproject = \"P\"\nversion = \"1\"\nneeds_types = [dict(directive=\"req\", title=\"Requirement\", prefix=\"R_\")]\n",
		"index.rst": fieldsRST}
	sorted := []any{"REQ_2", "REQ_2.p1", "REQ_3"}
	asWritten := []any{"REQ_3", "REQ_2", "REQ_3", "REQ_2.p1"}
	for name, c := range map[string]struct {
		file, text string
		want       []any
	}{
		"seg.toml 8.2":              {"seg.toml", "allow_empty = true\n[needs]\nsphinx_needs = \"8.2\"\n", sorted},
		"seg.toml 8.1":              {"seg.toml", "allow_empty = true\n[needs]\nsphinx_needs = \"8.1\"\n", asWritten},
		"requirements.txt >=8.2":    {"requirements.txt", "sphinx>=7\nsphinx-needs>=8.2.0\n", sorted},
		"pyproject ==9.0":           {"pyproject.toml", "[project]\ndependencies = [\"sphinx_needs==9.0.1\"]\n", sorted},
		"docs/requirements.txt 6.3": {"docs/requirements.txt", "sphinx-needs~=6.3\n", asWritten},
	} {
		files := map[string]string{"seg.toml": "allow_empty = true\n"}
		for k, v := range base {
			files[k] = v
		}
		files[c.file] = c.text
		n := need(t, needsJSONOf(t, files), "REQ_1")
		if !reflect.DeepEqual(n["links"], c.want) {
			t.Errorf("%s: links %v, want %v", name, n["links"], c.want)
		}
	}
}
