package lsp

// A requirement's status where the user looks (a code lens and an inlay
// hint on each directive line of an open document), LSP 3.17's pull
// diagnostics, and the request that waits for the background publishing.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// MethodPublished is seg's own request: it is answered (with null) once
// every change sent before it is analysed and every file's diagnostics
// are published, the background publishing included. Tests and
// bench/lspbench use it; an editor has no need of it.
const MethodPublished = "seg/published"

func (s *server) Request(ctx context.Context, method string, _ any) (any, error) {
	if method != MethodPublished {
		return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not found: "+method)
	}
	if s.current(ctx) == nil { // (current lets later messages be read)
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	want := s.gen
	for !s.closed && (s.snapGen < want || s.background > 0 || len(s.backlog) > 0 && s.gen == want) {
		s.cond.Wait()
		if s.gen != want {
			// An edit came in: wait for its analysis and publishing too.
			want = s.gen
		}
	}
	return nil, nil
}

// statusLine is a requirement's status as a code lens shows it:
// "unproven · 0 tests · 1 impl". The counts are the evaluation's
// (snapshot.verdict reads evaluate's evidence record).
func statusLine(v verdict) string {
	return fmt.Sprintf("%s · %s · %s", v.status, plural(v.tests, "test"), plural(v.impls, "impl"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// firstReason is the first blocking reason of an unsatisfied
// requirement ("" when satisfied).
func firstReason(v verdict) string {
	for _, r := range v.reasons {
		if r.blocking {
			return r.message
		}
	}
	return ""
}

// fileStatus is what a code lens and an inlay hint show a document from:
// its text and, in document order, its requirements with their verdicts.
type fileStatus struct {
	t        *text
	enc      encoding
	nodes    []node
	verdicts []verdict
}

// statuses is the fileStatus of the document at u; ok is false when no
// analysis is done yet or the document is not in the folder.
func (s *server) statuses(ctx context.Context, u uri.URI) (fs fileStatus, ok bool) {
	snap := s.current(ctx)
	if snap == nil {
		return fs, false
	}
	file, ok := s.path(u)
	if !ok {
		return fs, false
	}
	fs.t, fs.enc = s.docText(snap, file), s.encoding()
	for _, n := range snap.nodes(file) {
		if !n.defined || n.kind != "requirement" {
			continue
		}
		v, ok := snap.verdict(n.id)
		if !ok {
			continue
		}
		fs.nodes = append(fs.nodes, n)
		fs.verdicts = append(fs.verdicts, v)
	}
	return fs, true
}

func (s *server) CodeLens(ctx context.Context, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	out := []protocol.CodeLens{}
	fs, ok := s.statuses(ctx, p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	for i, n := range fs.nodes {
		title := statusLine(fs.verdicts[i])
		if r := firstReason(fs.verdicts[i]); r != "" {
			title += ": " + r
		}
		// A lens with a command that names nothing is shown, not run.
		out = append(out, protocol.CodeLens{Range: fs.t.rangeOf(n.span, fs.enc), Command: protocol.Command{Title: title}})
	}
	return out, nil
}

func (s *server) InlayHint(ctx context.Context, p *protocol.InlayHintParams) ([]protocol.InlayHint, error) {
	out := []protocol.InlayHint{}
	fs, ok := s.statuses(ctx, p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	lo, hi := fs.t.offset(p.Range.Start, fs.enc), fs.t.offset(p.Range.End, fs.enc)
	yes := true
	for i, n := range fs.nodes {
		if n.span.end < lo || n.span.start > hi {
			continue
		}
		h := protocol.InlayHint{
			Position:    fs.t.rangeOf(span{n.span.end, n.span.end}, fs.enc).Start,
			Label:       protocol.String(statusLine(fs.verdicts[i])),
			PaddingLeft: &yes,
		}
		if r := firstReason(fs.verdicts[i]); r != "" {
			h.Tooltip = protocol.String(r)
		}
		out = append(out, h)
	}
	return out, nil
}

// resultID names a file's diagnostics as converted: the same diagnostics
// have the same ID in any snapshot, so that a client that has them is
// told "unchanged".
func resultID(key []byte) string {
	h := sha256.Sum256(key)
	return hex.EncodeToString(h[:12])
}

// pulled converts a file's diagnostics for a pull request: the report,
// and its result ID.
func (s *server) pulled(snap snapshot, file string, set settings, enc encoding) ([]protocol.Diagnostic, string) {
	diags := s.lspDiagnostics(snap, file, set, enc, s.isOpen(file))
	key, _ := protocol.Marshal(diags)
	return diags, resultID(key)
}

func (s *server) Diagnostic(ctx context.Context, p *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	snap := s.current(ctx)
	full := func(items []protocol.Diagnostic, id string) protocol.DocumentDiagnosticReport {
		return &protocol.RelatedFullDocumentDiagnosticReport{FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &id, Items: items}}
	}
	file, ok := s.path(p.TextDocument.URI)
	if snap == nil || !ok {
		return full([]protocol.Diagnostic{}, resultID(nil)), nil
	}
	s.mu.Lock()
	set, enc := s.set, s.enc
	s.mu.Unlock()
	diags, id := s.pulled(snap, file, set, enc)
	if p.PreviousResultID != nil && *p.PreviousResultID == id {
		return &protocol.RelatedUnchangedDocumentDiagnosticReport{UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: id}}, nil
	}
	return full(diags, id), nil
}

// DiagnosticWorkspace answers workspace/diagnostic: every file with
// diagnostics, and those the client knows that have none any more; a
// file whose result ID the client has is reported unchanged. When every
// file is unchanged, the answer waits for an analysis that changes one
// (the client asks again at once otherwise).
func (s *server) DiagnosticWorkspace(ctx context.Context, p *protocol.WorkspaceDiagnosticParams) (*protocol.WorkspaceDiagnosticReport, error) {
	known := map[string]string{}
	for _, r := range p.PreviousResultIds {
		if f, ok := s.path(r.URI); ok {
			known[f] = r.Value
		}
	}
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	defer stop()
	for {
		snap := s.current(ctx)
		if snap == nil {
			return &protocol.WorkspaceDiagnosticReport{Items: []protocol.WorkspaceDocumentDiagnosticReport{}}, nil
		}
		s.mu.Lock()
		set, enc, runs := s.set, s.enc, s.runs
		s.mu.Unlock()
		files := map[string]bool{}
		for _, f := range snap.files() {
			files[f] = true
		}
		for f := range known {
			files[f] = true
		}
		items := []protocol.WorkspaceDocumentDiagnosticReport{}
		changed := false
		for _, f := range slices.Sorted(maps.Keys(files)) {
			diags, id := s.pulled(snap, f, set, enc)
			u := s.uriOf(f)
			var version *int32
			s.mu.Lock()
			if d := s.docs[f]; d != nil {
				v := d.version
				version = &v
			}
			s.mu.Unlock()
			prev, had := known[f]
			switch {
			case had && prev == id:
				items = append(items, &protocol.WorkspaceUnchangedDocumentDiagnosticReport{URI: u, Version: version,
					UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: id}})
			case !had && len(diags) == 0:
				// Nothing to say of a file the client shows nothing for.
			default:
				changed = true
				items = append(items, &protocol.WorkspaceFullDocumentDiagnosticReport{URI: u, Version: version,
					FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &id, Items: diags}})
			}
		}
		if changed || len(known) == 0 || ctx.Err() != nil {
			return &protocol.WorkspaceDiagnosticReport{Items: items}, nil
		}
		// Nothing new: wait for the next analysis.
		s.mu.Lock()
		for !s.closed && ctx.Err() == nil && s.runs == runs {
			s.cond.Wait()
		}
		closed := s.closed
		s.mu.Unlock()
		if closed || ctx.Err() != nil {
			return &protocol.WorkspaceDiagnosticReport{Items: items}, nil
		}
	}
}
