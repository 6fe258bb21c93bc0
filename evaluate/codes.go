package evaluate

import "github.com/seg-trace/seg/diag"

// CodeExpiredWaiver is the one diagnostic that depends on the evaluation
// date.
var CodeExpiredWaiver = diag.NewWarning("expired-waiver", "a waiver past its :expires: date")

// The reason codes a verdict carries (docs/codes.md). Blocking ones make a
// requirement unsatisfied; the others are notes an explanation shows.
var (
	ReasonNoActiveVerifies    = diag.NewReason("no-active-verifies", "a leaf with no active verifies edge (leaf rule, clause 1)", true)
	ReasonNoActiveImplements  = diag.NewReason("no-active-implements", "a leaf with no active implements edge (leaf rule, clause 2)", true)
	ReasonNoConfirmingOutcome = diag.NewReason("no-confirming-outcome", "a test the leaf names has no witnessed, non-skipped outcome (clause 3)", true)
	ReasonOutcomeFailed       = diag.NewReason("outcome-failed", "a confirming outcome failed or errored and no waiver in force excuses it (clause 4)", true)
	ReasonOutcomeInvalid      = diag.NewReason("outcome-invalid", "a confirming outcome has a missing or invalid :result:", true)
	ReasonChildUnsatisfied    = diag.NewReason("child-unsatisfied", "a requirement that refines this non-leaf is unsatisfied", true)
	ReasonInactiveEdge        = diag.NewReason("inactive-edge", "a verifies or implements edge is suspect, retired or invalid", true)
	ReasonOnCycle             = diag.NewReason("on-cycle", "the requirement sits on a refinement cycle", true)
	ReasonOutcomeUnwitnessed  = diag.NewReason("outcome-unwitnessed", "note: an outcome excluded because it witnesses no implementation", false)
	ReasonOutcomeSkipped      = diag.NewReason("outcome-skipped", "note: a skipped outcome, listed but adding no evidence", false)
	ReasonOutcomeExcused      = diag.NewReason("outcome-excused", "note: a failed outcome excused by a waiver in force", false)
	ReasonOwnOutcomes         = diag.NewReason("own-outcomes-not-counted", "note: a non-leaf's own test outcomes are not counted", false)
)
