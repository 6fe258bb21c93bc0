package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// SARIF 2.1.0 output (docs/ci.md). The log has one run; its rules are the
// whole code table, diagnostic codes then reason codes, each group by name
// (diag.Codes), so a rule's index is stable for a given seg version. Results are the diagnostics (rule = their code)
// and then the unsatisfied requirements in ID order (rule = the code of
// their first blocking reason; every blocking reason is also a related
// location). Every result has a location in a file, as GitHub code scanning
// requires; a diagnostic that names no file is a tool execution
// notification of the invocation instead. Every struct fixes its key
// order, and nothing depends on the clock or on where the tree sits, so the
// same tree gives the same bytes.

const (
	// SARIFSchema is the $schema of the log: the OASIS schema's own id.
	SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// InformationURI is seg's home.
	InformationURI = "https://github.com/seg-trace/seg"
	// SourceRoot is the uriBaseId every artifact location is relative to:
	// the root of the tree seg checked.
	SourceRoot = "SRCROOT"
	// unsatisfiedRule is the rule of an unsatisfied requirement that has no
	// blocking reason, which the evaluator never produces; it is not in the
	// rules table.
	unsatisfiedRule = "unsatisfied-requirement"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	Invocations        []sarifInvocation                `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds"`
	Results            []sarifResult                    `json:"results"`
	ColumnKind         string                           `json:"columnKind"`
	Properties         sarifRunProperties               `json:"properties"`
}

// sarifRunProperties is the run's property bag: the evaluation date every
// report states, and the summary figures of seg-check/1.
type sarifRunProperties struct {
	At      string      `json:"evaluationDate"`
	Summary jsonSummary `json:"summary"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     sarifMessage  `json:"shortDescription"`
	HelpURI              string        `json:"helpUri"`
	Help                 sarifMessage  `json:"help"`
	DefaultConfiguration sarifRuleConf `json:"defaultConfiguration"`
}

type sarifRuleConf struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	ExitCode            int                 `json:"exitCode"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

// sarifNotification is a finding that names no file (a results glob that
// matched nothing): it is about the run, not about a place in the tree.
type sarifNotification struct {
	Level          string        `json:"level"`
	Message        sarifMessage  `json:"message"`
	AssociatedRule *sarifRuleRef `json:"associatedRule,omitempty"`
}

type sarifRuleRef struct {
	ID    string `json:"id"`
	Index *int   `json:"index,omitempty"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        *int            `json:"ruleIndex,omitempty"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	// Suppressions are set on a finding the project suppressed: a
	// viewer shows it as such, and it counts for nothing.
	Suppressions []sarifSuppression `json:"suppressions,omitempty"`
}

// sarifSuppression says who suppressed a result and why: inSource for a
// ".. seg: ignore" comment, external for seg.toml's [[check.ignore]] and
// conf.py's suppress_warnings.
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification"`
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	Message          *sarifMessage          `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI         string        `json:"uri,omitempty"`
	URIBaseID   string        `json:"uriBaseId,omitempty"`
	Description *sarifMessage `json:"description,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// sarifRules returns seg's rules table: one rule per diagnostic code and
// per verdict reason code, with its index in the log's rules array.
func sarifRules() ([]sarifRule, map[string]int) {
	var rules []sarifRule
	index := map[string]int{}
	for _, c := range diag.Codes() {
		if c.Editor {
			continue
		}
		level := sarifLevel(c.Severity)
		if c.IsReason() {
			// Blocking reasons fail the check; the others are notes that
			// only explanations show, never results.
			level = "note"
			if c.Blocking {
				level = "error"
			}
		}
		index[c.Name] = len(rules)
		uri := c.URL()
		rules = append(rules, sarifRule{
			ID:                   c.Name,
			Name:                 ruleName(c.Name),
			ShortDescription:     sarifMessage{Text: c.Summary},
			HelpURI:              uri,
			Help:                 sarifMessage{Text: c.Summary + ". Documentation: " + uri},
			DefaultConfiguration: sarifRuleConf{Level: level},
		})
	}
	return rules, index
}

// ruleName turns a code into the PascalCase name SARIF viewers show
// (unresolved-link: UnresolvedLink).
func ruleName(code string) string {
	var b strings.Builder
	for _, part := range strings.Split(code, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}

// WriteSARIF writes the SARIF 2.1.0 log. version is seg's version, for
// tool.driver.version (empty leaves it out).
func WriteSARIF(w io.Writer, c *check.Check, version string) error {
	rules, index := sarifRules()
	wh := whereOf(c)
	run := newSARIFRun(c, version, rules)
	for _, d := range c.Diagnostics {
		run.addDiagnostic(wh, d, index)
	}
	for _, sd := range c.Suppressed {
		if !sd.Span.Start.IsValid() {
			continue // every suppression is of a finding in a file
		}
		run.addDiagnostic(wh, sd.Diagnostic, index)
		run.Results[len(run.Results)-1].Suppressions = []sarifSuppression{suppressionOf(sd)}
	}
	for _, r := range c.Requirements() {
		if !r.Verdict.Satisfied {
			run.Results = append(run.Results, unsatisfiedResult(wh, r, index, c.FailsOn(r)))
		}
	}
	return encode(w, sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// suppressionOf says how sd was suppressed.
func suppressionOf(sd check.Suppressed) sarifSuppression {
	if sd.Reason == "" {
		return sarifSuppression{Kind: "external", Status: "accepted",
			Justification: "silenced by the project's suppress_warnings entry " + sd.By}
	}
	kind := "external"
	if sd.InSource {
		kind = "inSource"
	}
	return sarifSuppression{Kind: kind, Status: "accepted", Justification: sd.Reason + " (" + sd.By + ")"}
}

// newSARIFRun is the run of a check, with no results yet.
func newSARIFRun(c *check.Check, version string, rules []sarifRule) sarifRun {
	exit := 0
	if c.Failed() {
		exit = 1
	}
	return sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "seg", InformationURI: InformationURI, Version: version, Rules: rules,
		}},
		// seg did its job even when it found problems: those are results.
		Invocations: []sarifInvocation{{ExecutionSuccessful: true, ExitCode: exit}},
		// The root's absolute path is left out on purpose: the same tree
		// gives the same bytes wherever it sits (SEG-SREQ-009).
		OriginalURIBaseIDs: map[string]sarifArtifactLocation{
			SourceRoot: {Description: &sarifMessage{Text: "The root of the tree seg checked (ROOT on its command line); every artifact uri is relative to it."}},
		},
		Results:    []sarifResult{},
		ColumnKind: "unicodeCodePoints",
		Properties: sarifRunProperties{
			At:      Date(c.At),
			Summary: jsonSummary(c.Counts()),
		},
	}
}

// ruleRef is the index of code's rule in index, nil for a code with no
// rule.
func ruleRef(index map[string]int, code string) *int {
	if i, ok := index[code]; ok {
		return &i
	}
	return nil
}

// addDiagnostic adds d to the run: a result, or a notification of the run
// when d names no file.
func (run *sarifRun) addDiagnostic(wh where, d diag.Diagnostic, index map[string]int) {
	text := d.Message
	if d.Detail != "" {
		text += "\n" + d.Detail
	}
	var related []sarifLocation
	for _, r := range d.Related {
		if !r.Span.Start.IsValid() {
			text += "\nnote: " + r.Message
			continue
		}
		related = append(related, location(wh, r.Span, &sarifMessage{Text: r.Message}, len(related)+1))
	}
	code := d.Code.Name
	if !d.Span.Start.IsValid() {
		// GitHub code scanning refuses a whole log in which one result
		// has no location, so a finding about no file is told as a
		// notification of the run.
		inv := &run.Invocations[0]
		inv.Notifications = append(inv.Notifications, sarifNotification{
			Level: sarifLevel(d.Severity()), Message: sarifMessage{Text: text},
			AssociatedRule: &sarifRuleRef{ID: code, Index: ruleRef(index, code)},
		})
		return
	}
	run.Results = append(run.Results, sarifResult{
		RuleID:           code,
		RuleIndex:        ruleRef(index, code),
		Level:            sarifLevel(d.Severity()),
		Message:          sarifMessage{Text: text},
		Locations:        []sarifLocation{location(wh, d.Span, nil, 0)},
		RelatedLocations: related,
	})
}

// unsatisfiedResult is the result of an unsatisfied requirement, under
// the rule of its first blocking reason, with each reason's place: an
// error where it fails the check (fails), else a warning.
func unsatisfiedResult(wh where, r check.Requirement, index map[string]int, fails bool) sarifResult {
	reasons := r.Verdict.Blocking()
	rule := unsatisfiedRule
	if len(reasons) > 0 {
		rule = reasons[0].Code.Name
	}
	res := sarifResult{
		RuleID:    rule,
		RuleIndex: ruleRef(index, rule),
		Level:     level(fails),
		Message:   sarifMessage{Text: unsatisfiedMessage(wh, r)},
		Locations: []sarifLocation{location(wh, source.At(r.Node.Pos()), nil, 0)},
	}
	for _, reason := range reasons {
		if !reason.Pos.IsValid() {
			continue
		}
		msg := &sarifMessage{Text: fmt.Sprintf("%s [%s]", reason.Message, reason.Code)}
		res.RelatedLocations = append(res.RelatedLocations, location(wh, source.At(reason.Pos), msg, len(res.RelatedLocations)+1))
	}
	return res
}

// location is the physical location of a span that names a file: no
// region when it names no line. id > 0 numbers a related location.
func location(wh where, sp source.Span, msg *sarifMessage, id int) sarifLocation {
	start, end := wh.at(sp.Start), wh.at(sp.End)
	pl := &sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: fileURI(start.Filename), URIBaseID: SourceRoot}}
	if start.IsValid() {
		rg := &sarifRegion{StartLine: start.Line}
		if start.Column > 0 {
			rg.StartColumn = wh.runeCol(sp.Start)
		}
		if end.IsValid() && sp.End.SameFile(sp.Start) && start.Column > 0 && end.Column > 0 && before(start, end) {
			rg.EndLine = end.Line
			rg.EndColumn = wh.runeCol(sp.End)
		}
		pl.Region = rg
	}
	return sarifLocation{ID: intRef(id), PhysicalLocation: pl, Message: msg}
}

func intRef(id int) *int {
	if id <= 0 {
		return nil
	}
	return &id
}

// fileURI turns a root-relative slash path into a relative URI reference:
// every byte but the unreserved ones and the separator is percent-encoded,
// so a ':' in the first segment cannot read as a scheme and a name with
// spaces, commas or non-ASCII letters is still a valid uri-reference.
func fileURI(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch {
		case 'a' <= ch && ch <= 'z', 'A' <= ch && ch <= 'Z', '0' <= ch && ch <= '9',
			ch == '-', ch == '.', ch == '_', ch == '~', ch == '/':
			b.WriteByte(ch)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[ch>>4])
			b.WriteByte(hex[ch&15])
		}
	}
	return b.String()
}

// level is an unsatisfied requirement's level in SARIF and GitHub
// annotations: error when the check's policy fails on it, warning when
// it is shown but does not fail (unproven under --fail-on errors,failing).
func level(fails bool) string {
	if fails {
		return "error"
	}
	return "warning"
}
