package report

import (
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/evaluate"
)

// The coverage record as seg check --format json carries it (docs/json.md):
// evaluate's figures (check.Coverage), each as a ratio.

type jsonCoverage struct {
	All    coverageFigures   `json:"all"`
	ByType []coverageFigures `json:"by_type"`
	// Tests counts the test specifications; BrokenReferences their link
	// entries that name no node, or one of the wrong kind.
	Tests            int `json:"tests"`
	BrokenReferences int `json:"broken_references"`
	// Below are the --min-coverage thresholds not reached.
	Below []jsonShortfall `json:"below,omitempty"`
}

// coverageFigures are one type's figures (Type "" for all requirements).
type coverageFigures struct {
	Type                   string `json:"type,omitempty"`
	Requirements           int    `json:"requirements"`
	Leaves                 int    `json:"leaves"`
	Satisfied              Ratio  `json:"satisfied"`
	Implemented            Ratio  `json:"implemented"`
	Verified               Ratio  `json:"verified"`
	ImplementedAndVerified Ratio  `json:"implemented_and_verified"`
	Code                   Ratio  `json:"code"`
	Test                   Ratio  `json:"test"`
	FullyLinked            Ratio  `json:"fully_linked"`
	TestsLinked            Ratio  `json:"tests_linked"`
}

type jsonShortfall struct {
	Threshold string  `json:"threshold"`
	Type      string  `json:"type,omitempty"`
	Measure   string  `json:"measure"`
	Min       float64 `json:"min_percent"`
	Count     int     `json:"count"`
	Total     int     `json:"total"`
	Message   string  `json:"message"`
}

// ratio is count of total, finished.
func ratio(count, total int) Ratio {
	r := Ratio{Count: count, Total: total}
	r.finish()
	return r
}

func figuresOf(tc evaluate.TypeCoverage, tests int) coverageFigures {
	return coverageFigures{Type: tc.Type, Requirements: tc.Requirements, Leaves: tc.Leaves,
		Satisfied:   ratio(tc.Satisfied, tc.Requirements),
		Implemented: ratio(tc.Implemented, tc.Leaves), Verified: ratio(tc.Verified, tc.Leaves),
		ImplementedAndVerified: ratio(tc.Both, tc.Leaves),
		Code:                   ratio(tc.Code, tc.Requirements), Test: ratio(tc.Test, tc.Requirements),
		FullyLinked: ratio(tc.FullyLinked, tc.Requirements), TestsLinked: ratio(tc.TestsLinked, tests)}
}

// coverageJSON is check c's coverage record, with the thresholds it
// misses.
func coverageJSON(c *check.Check) jsonCoverage {
	cv := c.Coverage()
	out := jsonCoverage{All: figuresOf(cv.All, cv.Tests), ByType: []coverageFigures{}, Tests: cv.Tests, BrokenReferences: cv.BrokenReferences}
	for _, tc := range cv.ByType {
		out.ByType = append(out.ByType, figuresOf(tc, cv.Tests))
	}
	for _, s := range cv.Below(c.MinCoverage) {
		out.Below = append(out.Below, jsonShortfall{Threshold: s.Threshold.String(), Type: s.Type, Measure: s.Measure.String(),
			Min: s.Percent, Count: s.Count, Total: s.Total, Message: s.String()})
	}
	return out
}
