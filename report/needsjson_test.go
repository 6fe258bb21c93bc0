package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/seg-trace/seg/check"
)

// needsCheck runs the pipeline (without test results) on a tree with its
// ubproject.toml and seg.toml.
func needsCheck(t *testing.T, root string) *check.Check {
	t.Helper()
	return checkOfDir(t, root)
}

// The fields sphinx-needs' needs.json has, which every need seg writes
// must have too: sphinx-needs' core fields and seg's verdict.
const needsJSONSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["created", "current_version", "project", "versions"],
  "properties": {
    "created": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$"},
    "current_version": {"type": "string"},
    "project": {"type": "string"},
    "versions": {
      "type": "object", "minProperties": 1,
      "additionalProperties": {
        "type": "object",
        "required": ["created", "needs", "needs_amount", "needs_schema", "filters", "filters_amount"],
        "properties": {
          "needs_amount": {"type": "integer"},
          "needs_schema": {"type": "object", "required": ["properties"]},
          "needs": {
            "type": "object",
            "additionalProperties": {
              "type": "object",
              "required": ["id", "type", "type_name", "title", "docname", "doctype", "lineno", "content",
                           "links", "links_back", "parent_needs", "parent_needs_back",
                           "status", "tags", "seg_kind", "seg_verdict"],
              "properties": {
                "id": {"type": "string", "minLength": 1},
                "type": {"type": "string", "minLength": 1},
                "title": {"type": "string"},
                "content": {"type": "string"},
                "docname": {"type": "string", "not": {"pattern": "\\.rst$"}},
                "lineno": {"type": "integer", "minimum": 1},
                "links": {"type": "array", "items": {"type": "string"}},
                "links_back": {"type": "array", "items": {"type": "string"}},
                "status": {"type": ["string", "null"]},
                "tags": {"type": "array", "items": {"type": "string"}},
                "seg_verdict": {"enum": ["satisfied", "unsatisfied", null]}
              }
            }
          }
        }
      }
    }
  }
}`

func compileSchema(t *testing.T, name string, doc any) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNeedsJSONGolden(t *testing.T) {
	root := filepath.Join("testdata", "needs", "tree")
	c := needsCheck(t, root)
	var buf bytes.Buffer
	if err := WriteNeedsJSON(&buf, c); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "needs", "needs.json"), buf.Bytes())

	// The same tree gives the same bytes.
	var again bytes.Buffer
	if err := WriteNeedsJSON(&again, needsCheck(t, root)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two runs differ")
	}

	// The document has sphinx-needs' fields ...
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	sch, err := jsonschema.UnmarshalJSON(strings.NewReader(needsJSONSchema))
	if err != nil {
		t.Fatal(err)
	}
	if err := compileSchema(t, "needs-json.schema.json", sch).Validate(inst); err != nil {
		t.Fatalf("needs.json does not have sphinx-needs' fields: %v", err)
	}

	var doc struct {
		CurrentVersion string `json:"current_version"`
		Project        string `json:"project"`
		Versions       map[string]struct {
			NeedsAmount int                       `json:"needs_amount"`
			Needs       map[string]map[string]any `json:"needs"`
			Schema      struct {
				Properties map[string]struct {
					FieldType string `json:"field_type"`
				} `json:"properties"`
			} `json:"needs_schema"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.CurrentVersion != "1.2" || doc.Project != "Door control" {
		t.Errorf("version %q project %q", doc.CurrentVersion, doc.Project)
	}
	v := doc.Versions[doc.CurrentVersion]
	if v.NeedsAmount != len(v.Needs) || v.NeedsAmount != c.Graph.Len() {
		t.Errorf("needs_amount %d, %d needs, %d nodes", v.NeedsAmount, len(v.Needs), c.Graph.Len())
	}
	// ... every link type of the project with its _back list, on every
	// need, and nothing the schema does not describe.
	var links []string
	for name, p := range v.Schema.Properties {
		if p.FieldType == "links" {
			links = append(links, name)
			if v.Schema.Properties[name+"_back"].FieldType != "backlinks" {
				t.Errorf("schema: %s has no %s_back", name, name)
			}
		}
	}
	sort.Strings(links)
	for _, lt := range c.Graph.Needs().Links {
		if !slices.Contains(links, lt.Option) {
			t.Errorf("link type %s is not in needs_schema", lt.Option)
		}
	}
	for id, need := range v.Needs {
		if need["id"] != id {
			t.Errorf("need %s has id %v", id, need["id"])
		}
		for k := range need {
			if _, ok := v.Schema.Properties[k]; !ok {
				t.Errorf("need %s: field %s is not in needs_schema", id, k)
			}
		}
		for _, l := range links {
			if _, ok := need[l]; !ok {
				t.Errorf("need %s has no %s", id, l)
			}
			if _, ok := need[l+"_back"]; !ok {
				t.Errorf("need %s has no %s_back", id, l)
			}
		}
	}
	// Back links mirror the links that resolved.
	for id, need := range v.Needs {
		for _, l := range links {
			for _, target := range need[l].([]any) {
				tid, _, _ := strings.Cut(target.(string), ".")
				tn, ok := v.Needs[tid]
				if !ok {
					continue // a dead link
				}
				if !slices.Contains(tn[l+"_back"].([]any), any(id)) {
					t.Errorf("%s %s %s, but %s's %s_back lacks it", id, l, target, tid, l)
				}
			}
		}
	}
	// Each need is valid against the needs_schema the file carries.
	var full map[string]any
	json.Unmarshal(buf.Bytes(), &full)
	needSchema := full["versions"].(map[string]any)["1.2"].(map[string]any)["needs_schema"]
	ns := compileSchema(t, "need.schema.json", needSchema)
	for id := range v.Needs {
		raw, _ := json.Marshal(v.Needs[id])
		inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err := ns.Validate(inst); err != nil {
			t.Errorf("need %s does not fit needs_schema: %v", id, err)
		}
	}
}

// Without a sphinx-needs project, every node is still a need of its
// directive's type, with seg's own link options.
func TestNeedsJSONWithoutProject(t *testing.T) {
	c := checkOfDir(t, filepath.Join("..", "examples", "brake"))
	var buf bytes.Buffer
	if err := WriteNeedsJSON(&buf, c); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	needs := doc["versions"].(map[string]any)[""].(map[string]any)["needs"].(map[string]any)
	n := needs["BRK-SREQ-010"].(map[string]any)
	if n["type"] != "sreq" || n["type_name"] != "Requirement" || n["seg_verdict"] != "satisfied" {
		t.Errorf("BRK-SREQ-010: %v", n)
	}
	if back := n["verifies_back"].([]any); len(back) == 0 {
		t.Errorf("no verifies_back: %v", n)
	}
}
