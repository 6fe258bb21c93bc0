package report

import (
	"encoding/json"
	"io"

	"github.com/seg-trace/seg/parser"
)

// The seg-check/1 schema (docs/json.md). Field order is fixed by the
// structs, so the bytes are deterministic.

type jsonCheck struct {
	Schema       string            `json:"schema"`
	At           string            `json:"at"`
	Summary      jsonSummary       `json:"summary"`
	Requirements []jsonRequirement `json:"requirements"`
	Diagnostics  []jsonDiagnostic  `json:"diagnostics"`
	Unmatched    []jsonCase        `json:"unmatched_cases,omitempty"`
}

type jsonSummary struct {
	Requirements int `json:"requirements"`
	Satisfied    int `json:"satisfied"`
	Unsatisfied  int `json:"unsatisfied"`
	Errors       int `json:"errors"`
	Warnings     int `json:"warnings"`
}

type jsonRequirement struct {
	ID      string       `json:"id"`
	Kind    string       `json:"kind"`
	Title   string       `json:"title"`
	File    string       `json:"file"`
	Line    int          `json:"line"`
	Leaf    bool         `json:"leaf"`
	Verdict string       `json:"verdict"`
	Reasons []jsonReason `json:"reasons"`
}

type jsonReason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

type jsonDiagnostic struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

type jsonCase struct {
	Name   string `json:"name"`
	Result string `json:"result"`
	File   string `json:"file"`
	Line   int    `json:"line"`
}

func verdictWord(ok bool) string {
	if ok {
		return "satisfied"
	}
	return "unsatisfied"
}

// WriteJSON writes the seg-check/1 document.
func WriteJSON(w io.Writer, c *Check) error {
	n := c.Counts()
	doc := jsonCheck{
		Schema:       "seg-check/1",
		At:           Date(c.At),
		Summary:      jsonSummary{n.Requirements, n.Satisfied, n.Unsatisfied, n.Errors, n.Warnings},
		Requirements: []jsonRequirement{},
		Diagnostics:  []jsonDiagnostic{},
	}
	for _, r := range c.Requirements() {
		jr := jsonRequirement{
			ID: r.Node.ID(), Kind: r.Node.Directive(), Title: r.Node.Title(),
			File: r.Node.Pos().File, Line: r.Node.Pos().Line, Leaf: r.Verdict.Leaf,
			Verdict: verdictWord(r.Verdict.Satisfied), Reasons: []jsonReason{},
		}
		for _, reason := range r.Verdict.Blocking() {
			jr.Reasons = append(jr.Reasons, jsonReason{reason.Code, reason.Message, reason.Pos.File, reason.Pos.Line, reason.Pos.Col})
		}
		doc.Requirements = append(doc.Requirements, jr)
	}
	for _, d := range c.Diagnostics {
		doc.Diagnostics = append(doc.Diagnostics, diagJSON(d))
	}
	for _, u := range c.Unmatched {
		doc.Unmatched = append(doc.Unmatched, jsonCase{u.Name, u.Result, u.Pos.File, u.Pos.Line})
	}
	return encode(w, doc)
}

func diagJSON(d parser.Diagnostic) jsonDiagnostic {
	p := d.Span.Start
	return jsonDiagnostic{d.Code, d.Severity.String(), d.Message, p.File, p.Line, p.Col}
}

func encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
