package parser

import "github.com/seg-trace/seg/diag"

// The diagnostic codes of reading a file (docs/codes.md has a section for
// each).
var (
	CodeMalformedDirective  = diag.NewError("malformed-directive", "a node's directive block cannot be read")
	CodeMissingID           = diag.NewError("missing-id", "a node has no :id:")
	CodeInvalidID           = diag.NewError("invalid-id", "an ID does not match the ID pattern")
	CodeUnknownOption       = diag.NewError("unknown-option", "an option the node's kind does not take")
	CodeDuplicateOption     = diag.NewError("duplicate-option", "one option given twice on one node")
	CodeMissingOption       = diag.NewError("missing-option", "an outcome without :confirms: or :result:, a waiver without :excuses:")
	CodeInvalidResult       = diag.NewError("invalid-result", "a :result: outside passed, failed, skipped, error")
	CodeInvalidState        = diag.NewError("invalid-state", "a link state outside active, suspect, retired")
	CodeStateNotAllowed     = diag.NewError("state-not-allowed", "a state on a link option that takes none")
	CodeInvalidDate         = diag.NewError("invalid-date", "an :expires: or :date: that is not a YYYY-MM-DD date")
	CodeInvalidMaxAge       = diag.NewError("invalid-max-age", "a :max-age: that is not a positive whole number of days")
	CodeInvalidEncoding     = diag.NewError("invalid-encoding", "a file that is not valid UTF-8")
	CodeLineTooLong         = diag.NewError("line-too-long", "a file with a line over 10,000 characters, which docutils refuses to read")
	CodeUnreadable          = diag.NewError("unreadable-file", "a file of the tree that cannot be read")
	CodeFileTooLarge        = diag.NewError("file-too-large", "a file larger than seg reads (docs/limits.md)")
	CodeUnknownNeedType     = diag.NewWarning("unknown-need-type", "directives with an :id: of a type that is no need type or seg directive")
	CodeMisspelledDirective = diag.NewError("misspelled-directive", "a line written as a seg directive that docutils does not read as one: a typo in its marker or name, or no blank line before it")
	CodeHiddenDirective     = diag.NewWarning("hidden-directive", "a seg directive inside a comment or a literal block, which docutils reads as text")
	CodeMisplacedOption     = diag.NewWarning("misplaced-option", "a line that reads as an option of the node above it but is not in its option block")
	// CodeInternal marks a bug in seg (a participle error or a panic): the
	// grammar accepts every token stream, so it never blames the file.
	CodeInternal = diag.NewError("internal-error", "seg failed on its own (a bug); the rest of the tree is still checked")
)
