package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Read reads one side from a JSON document seg wrote: seg-check/1
// (requirements, verdicts, reasons, diagnostics) or seg-graph/1 (nodes,
// links, verdicts; a node's text by its "revision" when the document has
// one, else by its title). name labels the side.
func Read(name string, r io.Reader) (*Evaluation, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	var head struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s: not a JSON document seg wrote: %v", name, err)
	}
	schema := ""
	if head.Schema != nil {
		schema = *head.Schema
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	switch schema {
	case "seg-check/1":
		var doc struct {
			At           string   `json:"at"`
			Narrowed     []string `json:"narrowed"`
			Requirements []struct {
				Requirement
				Evidence *[]Evidence `json:"evidence"`
			} `json:"requirements"`
			Diagnostics []Diagnostic `json:"diagnostics"`
		}
		if err := dec.Decode(&doc); err != nil {
			return nil, fmt.Errorf("%s: bad seg-check/1 document: %v", name, err)
		}
		if err := whole(name, doc.Narrowed); err != nil {
			return nil, err
		}
		e := &Evaluation{Label: name, At: doc.At, Diagnostics: doc.Diagnostics, HasDiagnostics: true, HasEvidence: true}
		for _, r := range doc.Requirements {
			req := r.Requirement
			if r.Evidence == nil {
				e.HasEvidence = false // written by a seg before evidence[]
			} else {
				req.Evidence = *r.Evidence
			}
			e.Requirements = append(e.Requirements, req)
		}
		if err := e.valid(name); err != nil {
			return nil, err
		}
		return e, nil
	case "seg-graph/1":
		var doc struct {
			At       string   `json:"at"`
			Narrowed []string `json:"narrowed"`
			Nodes    []struct {
				Node
				Verdict  string `json:"verdict"`
				Status   string `json:"status"`
				Revision string `json:"revision"`
			} `json:"nodes"`
			Edges []Edge `json:"edges"`
		}
		if err := dec.Decode(&doc); err != nil {
			return nil, fmt.Errorf("%s: bad seg-graph/1 document: %v", name, err)
		}
		if err := whole(name, doc.Narrowed); err != nil {
			return nil, err
		}
		e := &Evaluation{Label: name, At: doc.At, Edges: doc.Edges, HasGraph: true, TextKind: "revision"}
		for _, n := range doc.Nodes {
			node := n.Node
			node.Text = n.Revision
			if n.Revision == "" {
				e.TextKind = "" // a seg that writes no revisions: titles only
			}
			e.Nodes = append(e.Nodes, node)
			if n.Kind == "requirement" {
				e.Requirements = append(e.Requirements, Requirement{ID: n.ID, Kind: n.Directive, Title: n.Title,
					File: n.File, Line: n.Line, Verdict: n.Verdict, Status: n.Status})
			}
		}
		if err := e.valid(name); err != nil {
			return nil, err
		}
		return e, nil
	case "":
		return nil, fmt.Errorf("%s: not a document seg wrote (no \"schema\"; want seg check --format json or seg graph --format json)", name)
	}
	return nil, fmt.Errorf("%s: schema %q is not one seg diff reads (want seg-check/1 or seg-graph/1)", name, schema)
}

// valid refuses a document whose requirements lack what a comparison
// needs, and sorts what it holds by ID.
func (e *Evaluation) valid(name string) error {
	for i, r := range e.Requirements {
		if len(r.Reasons) == 0 {
			e.Requirements[i].Reasons = nil // as a run gives them
		}
		if r.ID == "" {
			return fmt.Errorf("%s: requirement %d has no id", name, i+1)
		}
		switch r.status() {
		case "satisfied", "failing", "unproven", "unsatisfied":
		default:
			return fmt.Errorf("%s: requirement %s has no verdict seg writes (%q)", name, r.ID, r.status())
		}
	}
	slices.SortStableFunc(e.Requirements, func(a, b Requirement) int { return strings.Compare(a.ID, b.ID) })
	slices.SortStableFunc(e.Nodes, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	return nil
}

// Merge joins a side's seg-check/1 and seg-graph/1 documents: the
// requirements, reasons and diagnostics of the first, the nodes and links
// of the second. Both must be of one evaluation date.
func Merge(check, graph *Evaluation) (*Evaluation, error) {
	if !check.HasDiagnostics || !graph.HasGraph {
		return nil, fmt.Errorf("want a seg-check/1 and a seg-graph/1 document, in that order (%s, %s)", check.Label, graph.Label)
	}
	if check.At != graph.At {
		return nil, fmt.Errorf("%s is evaluated at %s, %s at %s: give documents of one run", check.Label, check.At, graph.Label, graph.At)
	}
	out := *check
	out.Label = check.Label + " + " + graph.Label
	out.Nodes, out.Edges, out.HasGraph, out.TextKind = graph.Nodes, graph.Edges, true, graph.TextKind
	return &out, nil
}

// whole refuses a document that shows part of its tree (seg check --only
// or --filter, seg graph --filter): a requirement it leaves out would
// count as removed, never as worse, and the diff gate would pass over it.
func whole(name string, narrowed []string) error {
	if len(narrowed) == 0 {
		return nil
	}
	return fmt.Errorf("%s: the evaluation shows part of its tree (narrowed by %s); seg diff compares whole evaluations: write it without --only and --filter", name, strings.Join(narrowed, " and "))
}
