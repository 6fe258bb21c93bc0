package report

import (
	"bufio"
	"encoding/json"
	"io"
	"reflect"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/diff"
	"github.com/seg-trace/seg/evaluate"
)

// The seg-check/1 schema (docs/json.md). Field order is fixed by the
// structs, so the bytes are deterministic.

type jsonCheck struct {
	Schema string `json:"schema"`
	At     string `json:"at"`
	// Narrowed says the document shows part of the tree's requirements
	// ("changed-files", "filter"): seg diff refuses to compare it.
	Narrowed     []string          `json:"narrowed,omitempty"`
	Summary      jsonSummary       `json:"summary"`
	Coverage     jsonCoverage      `json:"coverage"`
	Requirements []jsonRequirement `json:"requirements"`
	Diagnostics  []jsonDiagnostic  `json:"diagnostics"`
	Unmatched    []jsonCase        `json:"unmatched_cases,omitempty"`
	// Suppressed are the diagnostics the project's suppress_warnings
	// silences, each with the entry that does (docs/sphinx-needs.md).
	Suppressed []jsonSuppressed `json:"suppressed,omitempty"`
	// ResultsOutcomes are the outcomes made from results files, in the
	// order they were read.
	ResultsOutcomes []jsonResultsOutcome `json:"results_outcomes,omitempty"`
}

// jsonResultsOutcome is an outcome made from one run of a test case.
type jsonResultsOutcome struct {
	ID          string   `json:"id"`
	Case        string   `json:"case"`
	Result      string   `json:"result"`
	Confirms    []string `json:"confirms"`
	CaseMessage string   `json:"case_message,omitempty"`
	File        string   `json:"file"`
	Line        int      `json:"line"`
}

type jsonSuppressed struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	By       string `json:"suppressed_by"`
	Reason   string `json:"reason,omitempty"`
}

type jsonSummary struct {
	Requirements int `json:"requirements"`
	Satisfied    int `json:"satisfied"`
	Unsatisfied  int `json:"unsatisfied"`
	Failing      int `json:"failing"`
	Unproven     int `json:"unproven"`
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
	Status  string       `json:"status"`
	Reasons []jsonReason `json:"reasons"`
	// Policy names the evidence policy a leaf was decided under, left
	// out for the seed's rule (docs/semantics.md, "Evidence policies").
	Policy string `json:"policy,omitempty"`
	// Evidence is what the verdict counted (evaluate.Result.Counted),
	// what seg diff compares to find lost evidence.
	// It is nil (left out) unless the report asks for it (--evidence).
	Evidence *[]diff.Evidence `json:"evidence,omitempty"`
}

type jsonReason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	// Case and CaseMessage are set when the reason is about an outcome
	// made from a results file: its case's name and the first lines of
	// what the runner said about it.
	Case        string `json:"case,omitempty"`
	CaseMessage string `json:"case_message,omitempty"`
}

type jsonDiagnostic struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	// Detail is how to fix it, in full sentences; left out when empty.
	Detail string `json:"detail,omitempty"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

type jsonCase struct {
	Name   string `json:"name"`
	Result string `json:"result"`
	File   string `json:"file"`
	Line   int    `json:"line"`
}

// WriteJSON writes the seg-check/1 document.
func WriteJSON(w io.Writer, c *check.Check) error { return WriteJSONWith(w, c, TextOptions{}) }

// WriteJSONWith is WriteJSON with the options of --evidence.
func WriteJSONWith(w io.Writer, c *check.Check, opt TextOptions) error {
	wh := whereOf(c)
	n := c.Counts()
	doc := jsonCheck{
		Schema:       "seg-check/1",
		At:           Date(c.At),
		Narrowed:     narrowedBy(c),
		Summary:      jsonSummary(n),
		Coverage:     coverageJSON(c),
		Requirements: []jsonRequirement{},
		Diagnostics:  []jsonDiagnostic{},
	}
	for _, r := range c.Requirements() {
		p := wh.at(r.Node.Pos())
		jr := jsonRequirement{
			ID: r.Node.ID(), Kind: r.Node.Directive(), Title: r.Node.Title(),
			File: p.Filename, Line: p.Line, Leaf: r.Verdict.Leaf,
			Verdict: verdictWord(r.Verdict.Satisfied), Status: r.Verdict.Status.String(), Reasons: []jsonReason{},
			Policy: PolicyText(r.Verdict), Evidence: evidenceIf(opt.Evidence, wh, c, &r.Verdict),
		}
		for _, reason := range r.Verdict.Blocking() {
			jr.Reasons = append(jr.Reasons, reasonJSON(wh, reason))
		}
		doc.Requirements = append(doc.Requirements, jr)
	}
	for _, d := range c.Diagnostics {
		doc.Diagnostics = append(doc.Diagnostics, diagJSON(wh, d))
	}
	for _, d := range c.Suppressed {
		j := diagJSON(wh, d.Diagnostic)
		doc.Suppressed = append(doc.Suppressed, jsonSuppressed{j.Code, j.Severity, j.Message, j.File, j.Line, j.Column, d.By, d.Reason})
	}
	for _, u := range c.Unmatched {
		p := wh.at(u.Pos)
		doc.Unmatched = append(doc.Unmatched, jsonCase{u.Name, u.Result, p.Filename, p.Line})
	}
	for i := range c.Outcomes {
		o := &c.Outcomes[i]
		p := wh.at(o.Pos)
		jo := jsonResultsOutcome{ID: o.ID, Case: o.Title, Confirms: []string{}, CaseMessage: o.Body, File: p.Filename, Line: p.Line}
		if r := o.Option("result"); r != nil {
			jo.Result = r.Value
		}
		if cf := o.Option("confirms"); cf != nil {
			for _, l := range cf.Links {
				jo.Confirms = append(jo.Confirms, l.ID)
			}
		}
		doc.ResultsOutcomes = append(doc.ResultsOutcomes, jo)
	}
	return encode(w, doc)
}

func diagJSON(wh where, d diag.Diagnostic) jsonDiagnostic {
	p := wh.at(d.Span.Start)
	return jsonDiagnostic{Code: d.Code.Name, Severity: d.Severity().String(), Message: d.Message, Detail: d.Detail,
		File: p.Filename, Line: p.Line, Column: p.Column}
}

func reasonJSON(wh where, r evaluate.Reason) jsonReason {
	p := wh.at(r.Pos)
	jr := jsonReason{Code: r.Code.Name, Message: r.Message, File: p.Filename, Line: p.Line, Column: p.Column}
	if wh.c != nil {
		if n := wh.c.ResultsOutcome(r.Subject); n != nil {
			jr.Case, jr.CaseMessage = n.Title, n.Body
		}
	}
	return jr
}

// stdJSON makes encode write through encoding/json alone, in one piece:
// the tests compare the two.
var stdJSON = false

// encode writes v as indented JSON. A document's top-level arrays (the
// requirements, the nodes, the edges) are written one element at a time,
// so a large report never sits in memory twice; the bytes are the same as
// a json.Encoder with two-space indentation and no HTML escaping writes.
func encode(w io.Writer, v any) error {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if stdJSON || rv.Kind() != reflect.Struct {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fields := topFields(rv)
	if len(fields) == 0 {
		bw.WriteString("{}\n")
		return bw.Flush()
	}
	e := streamEncoder{bw: bw}
	bw.WriteString("{\n")
	for i, f := range fields {
		if err := e.field(f); err != nil {
			return err
		}
		if i < len(fields)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// topField is a field of the document written by encode.
type topField struct {
	name string
	v    reflect.Value
}

// topFields are the fields of the struct rv that encoding/json writes.
func topFields(rv reflect.Value) []topField {
	var fields []topField
	t := rv.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fv := rv.Field(i)
		if strings.Contains(opts, "omitempty") && emptyJSON(fv) {
			continue
		}
		fields = append(fields, topField{name, fv})
	}
	return fields
}

// streamEncoder writes a document's fields, and the elements of its
// arrays, one by one through an appender whose buffer is reused.
type streamEncoder struct {
	bw *bufio.Writer
	a  jsonAppender
}

// field writes one field of the document, less the comma and line end
// after it.
func (e *streamEncoder) field(f topField) error {
	key, _ := json.Marshal(f.name)
	e.bw.WriteString("  ")
	e.bw.Write(key)
	e.bw.WriteString(": ")
	if f.v.Kind() == reflect.Slice && !f.v.IsNil() && f.v.Len() > 0 {
		return e.array(f.v)
	}
	return e.part(f.v, "  ")
}

// array writes a non-empty top-level array an element at a time.
func (e *streamEncoder) array(v reflect.Value) error {
	e.bw.WriteString("[\n")
	for j := range v.Len() {
		e.bw.WriteString("    ")
		if err := e.part(v.Index(j), "    "); err != nil {
			return err
		}
		if j < v.Len()-1 {
			e.bw.WriteByte(',')
		}
		e.bw.WriteByte('\n')
	}
	e.bw.WriteString("  ]")
	return nil
}

// part writes x, whose first line is already indented by prefix.
func (e *streamEncoder) part(x reflect.Value, prefix string) error {
	e.a.buf = e.a.buf[:0]
	e.a.value(x, prefix)
	if e.a.err != nil {
		return e.a.err
	}
	e.bw.Write(e.a.buf)
	return nil
}

// emptyJSON is encoding/json's notion of an empty value for omitempty.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// narrowedBy names what narrowed check c, if anything.
func narrowedBy(c *check.Check) []string {
	var by []string
	if c.NarrowedToFiles() {
		by = append(by, "changed-files")
	}
	if c.FilterText() != "" {
		by = append(by, "filter")
	}
	return by
}
