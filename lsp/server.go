// Package lsp is seg's language server: it keeps the trace graph of a
// workspace folder up to date as the writer types, and answers an
// editor's questions about it over the Language Server Protocol (3.17)
// on a stream (stdio for `seg lsp`).
//
// The protocol types and the JSON-RPC 2.0 transport come from
// go.lsp.dev/protocol and go.lsp.dev/jsonrpc2. Messages are handled in
// the order they arrive; the analysis runs on its own goroutine, which
// folds a burst of edits into one evaluation, and a request that needs
// the analysis waits for the one that covers every edit received before
// it. Each analysis publishes the open documents' diagnostics first and
// the other files' in the background, which the next edit stops; a
// requirement's status is a diagnostic in open documents only unless a
// setting says otherwise (status.go: code lenses, inlay hints, pull
// diagnostics). docs/editors.md is the user's side of it.
package lsp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/seg-trace/seg/diag"
)

// Config is how `seg lsp` runs the server.
type Config struct {
	Options
	// Root is the tree's root; "" means the workspace folder the client
	// names (its first), or the working folder when it names none.
	Root string
	// Version is seg's version, reported in the initialize result.
	Version string
	// Log receives what the server has to say outside the protocol
	// (nil: nothing).
	Log io.Writer
	// MemoryLimit is the soft limit set on the process's memory once the
	// tree is read (at least twice the live heap); 0 lets the server
	// choose (limitMemory), -1 leaves the collector alone (for tests that
	// run servers in one process).
	MemoryLimit int64
	// Recheck is how often a server with nothing to do runs the analysis
	// again to see files no one tells it of: results files, the files
	// :source: entries name, seg.lock (neither the client's watcher nor
	// the poller covers them, and a test run outside the editor changes
	// results files). A run that finds nothing changed costs little: every
	// stage checks its files' identities and keeps its output. 0 means
	// every 3 seconds, a negative value never.
	Recheck time.Duration
}

// recheckEvery is Config.Recheck's default.
const recheckEvery = 3 * time.Second

// Serve runs the server on rwc until the client sends exit or closes the
// stream, and returns the process's exit code: 0 after shutdown then
// exit, 1 otherwise, as the protocol asks.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, cfg Config) int {
	s := newServer(cfg)
	return s.run(ctx, rwc)
}

// settings are what the client may change at run time
// (initializationOptions, workspace/didChangeConfiguration).
type settings struct {
	// CodesBaseURL is where each code's documentation is: the code's
	// entry is this plus the code (an anchor of docs/codes.md).
	CodesBaseURL string `json:"codesBaseURL"`
	// UnsatisfiedSeverity is "information" (the default), "hint",
	// "warning", "error" or "off".
	UnsatisfiedSeverity string `json:"unsatisfiedSeverity"`
	// UnsatisfiedScope is where a requirement's status is a diagnostic:
	// "open" (the default), in the documents open in the editor only, or
	// "workspace", in every file. Findings (errors and warnings) are
	// always workspace-wide.
	UnsatisfiedScope string `json:"unsatisfiedScope"`
}

// workspaceStatuses reports whether statuses are diagnostics in files
// that are not open.
func (set settings) workspaceStatuses() bool { return set.UnsatisfiedScope == "workspace" }

type document struct {
	uri     uri.URI
	version int32
	text    *text
}

type server struct {
	protocol.UnimplementedServer
	cfg  Config
	log  *log.Logger
	conn jsonrpc2.Conn

	mu          sync.Mutex
	cond        *sync.Cond
	initialized bool
	shutdown    bool
	closed      bool
	root        string
	enc         encoding
	set         settings
	clientWatch bool // the client watches files for us
	// pull is set when the client pulls diagnostics (LSP 3.17
	// textDocument/diagnostic): nothing is pushed then. refresh is set
	// when it takes workspace/diagnostic/refresh.
	pull, refresh bool
	// noted is closed when initialized arrives: the first analysis waits
	// for it (a moment at most), so that the documents the editor opens
	// right after it count.
	noted     chan struct{}
	notedOnce sync.Once
	// opened is closed at the first didOpen.
	opened     chan struct{}
	openedOnce sync.Once
	docs       map[string]*document
	eng        engine

	// analysis state, under mu
	pending map[string][]byte // path -> open text, or nil: read the disk
	// recheck asks for a run with nothing pending (rechecks); lastRun is
	// when the last analysis ended.
	recheck bool
	lastRun time.Time
	reload  bool // read the whole tree again
	gen     int  // bumped by every change
	snap    snapshot
	snapGen int
	runs    int // analyses done
	loadErr error
	sent    map[string]string // path -> the diagnostics last published
	// backlog are the files whose diagnostics are still to be published
	// in the background (the documents that are not open); an edit stops
	// that and the next analysis takes them up again.
	backlog map[string]bool
	// pubMu orders publishing: pubSeq is bumped by each analysis before
	// it publishes, and a background publisher of an older one stops.
	pubMu  sync.Mutex
	pubSeq int
	// background counts the background publishers running (under mu).
	background int
	// sentLoose are the findings without a file last shown as messages.
	sentLoose string
	exitCode  chan int
	watcher   *poller
}

func newServer(cfg Config) *server {
	s := &server{
		cfg:      cfg,
		docs:     map[string]*document{},
		pending:  map[string][]byte{},
		sent:     map[string]string{},
		backlog:  map[string]bool{},
		noted:    make(chan struct{}),
		opened:   make(chan struct{}),
		exitCode: make(chan int, 1),
		set:      settings{CodesBaseURL: diag.DocURL, UnsatisfiedSeverity: "information", UnsatisfiedScope: "open"},
	}
	out := cfg.Log
	if out == nil {
		out = io.Discard
	}
	s.log = log.New(out, "seg lsp: ", log.LstdFlags)
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *server) run(ctx context.Context, rwc io.ReadWriteCloser) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(newGuardedStream(rwc, s.log.Printf)), jsonrpc2.WithCodec(codec{}))
	s.conn.Go(ctx, s.guard(protocol.ServerHandler(s, nil)))
	go s.analyze(ctx)
	if every := cmp.Or(s.cfg.Recheck, recheckEvery); every > 0 {
		go s.rechecks(ctx, every)
	}
	code := 1
	select {
	case code = <-s.exitCode:
	case <-s.conn.Done():
		// The client went away without exit: the protocol's exit code 1.
	case <-ctx.Done():
	}
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	if s.watcher != nil {
		s.watcher.stop()
	}
	// Closing the stream ends the read loop, which may be blocked on an
	// input the client keeps open until the process exits; do not wait
	// for it longer than a moment.
	done := make(chan struct{})
	go func() {
		rwc.Close()
		s.conn.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
	return code
}

// codec marshals LSP payloads with the protocol package's union-aware
// encoder (the package installs the same on its own connections).
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// guard enforces the protocol's life cycle and keeps the connection alive
// whatever a message holds: a request before initialize or after shutdown
// gets an error, a notification's failure is logged rather than allowed
// to end the connection, and a panic becomes an internal error.
func (s *server) guard(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		method := req.Method()
		call := req.IsCall()
		s.mu.Lock()
		initialized, shutdown := s.initialized, s.shutdown
		s.mu.Unlock()
		switch {
		case method == protocol.MethodExit:
		case !initialized && method != protocol.MethodInitialize:
			if call {
				return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized")
			}
			return nil, nil
		case initialized && method == protocol.MethodInitialize:
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received")
		case shutdown:
			if call {
				return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down: only exit is accepted")
			}
			return nil, nil
		}
		defer func() {
			if r := recover(); r != nil {
				s.log.Printf("panic in %s: %v\n%s", method, r, debug.Stack())
				result, err = nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("internal error in seg (a bug): %v", r))
				if !call {
					s.showMessage(protocol.MessageTypeError, fmt.Sprintf("seg: internal error handling %s: %v", method, r))
					err = nil
				}
			}
		}()
		result, err = next(ctx, req)
		if err != nil && !call {
			s.log.Printf("%s: %v", method, err)
			s.logMessage(protocol.MessageTypeWarning, fmt.Sprintf("seg: %s: %v", method, err))
			return nil, nil
		}
		return result, err
	}
}

func (s *server) showMessage(t protocol.MessageType, msg string) {
	s.conn.Notify(context.Background(), protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: t, Message: msg})
}

func (s *server) logMessage(t protocol.MessageType, msg string) {
	s.conn.Notify(context.Background(), protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: t, Message: msg})
}

func (s *server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	root := s.cfg.Root
	if root == "" {
		if fs, ok := p.WorkspaceFolders.Get(); ok && len(fs) > 0 {
			root = uriPath(fs[0].URI)
		}
	}
	if root == "" && p.RootURI != nil {
		root = uriPath(*p.RootURI)
	}
	if root == "" {
		if rp, ok := p.RootPath.Get(); ok {
			root = rp
		}
	}
	if root == "" {
		root, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	enc := utf16
	if g := p.Capabilities.General; g != nil {
		for _, e := range g.PositionEncodings {
			if e == protocol.PositionEncodingKindUTF8 {
				enc = utf8Enc
			}
		}
	}
	s.mu.Lock()
	s.initialized = true
	s.root = root
	s.enc = enc
	s.applySettings(p.InitializationOptions)
	if w := p.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		s.clientWatch = *w.DidChangeWatchedFiles.DynamicRegistration
	}
	if td := p.Capabilities.TextDocument; td != nil && td.Diagnostic != nil {
		s.pull = true
	}
	if w := p.Capabilities.Workspace; w != nil && w.Diagnostics != nil && w.Diagnostics.RefreshSupport != nil {
		s.refresh = *w.Diagnostics.RefreshSupport
	}
	pull := s.pull
	s.eng = newEngine(root, s.cfg.Options)
	s.reload = true
	s.gen++
	s.cond.Broadcast()
	s.mu.Unlock()

	posEnc := protocol.PositionEncodingKindUTF16
	if enc == utf8Enc {
		posEnc = protocol.PositionEncodingKindUTF8
	}
	yes := true
	full := protocol.TextDocumentSyncKindIncremental
	segID := "seg"
	var pullOpts protocol.DiagnosticProvider
	if pull {
		pullOpts = &protocol.DiagnosticOptions{Identifier: &segID, InterFileDependencies: true, WorkspaceDiagnostics: true}
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: posEnc,
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: &yes, Change: &full,
				Save: protocol.Boolean(true),
			},
			DefinitionProvider:      protocol.Boolean(true),
			ReferencesProvider:      protocol.Boolean(true),
			DocumentSymbolProvider:  protocol.Boolean(true),
			WorkspaceSymbolProvider: protocol.Boolean(true),
			HoverProvider:           protocol.Boolean(true),
			CompletionProvider:      &protocol.CompletionOptions{TriggerCharacters: []string{":", ",", " "}},
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix},
			},
			RenameProvider:     &protocol.RenameOptions{PrepareProvider: &yes},
			CodeLensProvider:   &protocol.CodeLensOptions{},
			InlayHintProvider:  protocol.Boolean(true),
			DiagnosticProvider: pullOpts,
		},
		ServerInfo: protocol.ServerInfo{Name: "seg", Version: protocol.NewOptional(s.cfg.Version)},
	}, nil
}

func (s *server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	s.notedOnce.Do(func() { close(s.noted) })
	s.mu.Lock()
	watch := s.clientWatch
	root := s.root
	s.mu.Unlock()
	if watch {
		// Ask the client to tell us about .rst files and the config files
		// that change outside the editor. Its answer is not awaited: the
		// read loop must stay free to receive it.
		go func() {
			opts, _ := json.Marshal(map[string]any{"watchers": []map[string]any{
				{"globPattern": "**/*.rst"},
				{"globPattern": "**/seg.toml"},
				{"globPattern": "**/ubproject.toml"},
				{"globPattern": "**/conf.py"},
				{"globPattern": "**/seg.lock"},
			}})
			var res jsonrpc2.RawMessage
			_, err := s.conn.Call(context.Background(), protocol.MethodClientRegisterCapability, &protocol.RegistrationParams{
				Registrations: []protocol.Registration{{ID: "seg-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: opts}},
			}, &res)
			if err != nil {
				s.log.Printf("registering the file watcher: %v; polling instead", err)
				s.startPoller(root)
			}
		}()
	} else {
		s.startPoller(root)
	}
	return nil
}

func (s *server) startPoller(root string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watcher != nil || s.closed {
		return
	}
	s.watcher = newPoller(root, 2*time.Second, func(paths []string) {
		s.mu.Lock()
		for _, p := range paths {
			s.fileChangedLocked(p)
		}
		s.mu.Unlock()
	})
}

func (s *server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	return nil
}

func (s *server) Exit(ctx context.Context) error {
	s.mu.Lock()
	code := 1
	if s.shutdown {
		code = 0
	}
	s.mu.Unlock()
	select {
	case s.exitCode <- code:
	default:
	}
	return nil
}

func (s *server) applySettings(v protocol.LSPAny) {
	if len(v) == 0 {
		return
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal(v, &raw) != nil {
		return
	}
	if inner, ok := raw["seg"]; ok {
		v = protocol.LSPAny(inner)
	}
	var set settings
	if json.Unmarshal(v, &set) != nil {
		return
	}
	if set.CodesBaseURL != "" {
		s.set.CodesBaseURL = set.CodesBaseURL
	}
	if set.UnsatisfiedSeverity != "" {
		s.set.UnsatisfiedSeverity = strings.ToLower(set.UnsatisfiedSeverity)
	}
	if set.UnsatisfiedScope != "" {
		s.set.UnsatisfiedScope = strings.ToLower(set.UnsatisfiedScope)
	}
}

func (s *server) DidChangeConfiguration(ctx context.Context, p *protocol.DidChangeConfigurationParams) error {
	s.mu.Lock()
	s.applySettings(p.Settings)
	// Every published list may change (severity, links, scope): send
	// them again, the ones that become empty included.
	for f := range s.sent {
		s.sent[f] = "\x00"
	}
	s.reload = true
	s.gen++
	s.cond.Broadcast()
	s.mu.Unlock()
	return nil
}

// path maps a document URI to a root-relative slash path; ok is false
// for a document outside the root.
func (s *server) path(u uri.URI) (string, bool) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	return relPath(root, u)
}

func relPath(root string, u uri.URI) (string, bool) {
	p := uriPath(u)
	if p == "" {
		return "", false
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func uriPath(u uri.URI) string {
	if u.Scheme() != "file" {
		return ""
	}
	return filepath.FromSlash(u.FsPath())
}

func (s *server) uriOf(file string) uri.URI {
	s.mu.Lock()
	d := s.docs[file]
	root := s.root
	s.mu.Unlock()
	if d != nil {
		return d.uri
	}
	return uri.File(filepath.Join(root, filepath.FromSlash(file)))
}

// markLocked records that a file changed; the analysis picks it up.
func (s *server) markLocked(path string, txt []byte) {
	s.pending[path] = txt
	s.gen++
	s.cond.Broadcast()
}

func (s *server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	path, ok := s.path(p.TextDocument.URI)
	if !ok {
		return nil
	}
	t := newText([]byte(p.TextDocument.Text))
	s.mu.Lock()
	s.docs[path] = &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: t}
	s.markLocked(path, t.src)
	s.mu.Unlock()
	s.openedOnce.Do(func() { close(s.opened) })
	return nil
}

func (s *server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	path, ok := s.path(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil {
		return fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	src := d.text.src
	cur := d.text
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			src = []byte(c.Text)
		case *protocol.TextDocumentContentChangePartial:
			a, b := cur.offset(c.Range.Start, s.enc), cur.offset(c.Range.End, s.enc)
			if b < a {
				a, b = b, a
			}
			src = applyChange(src, span{a, b}, c.Text)
		}
		cur = newText(src)
	}
	d.text = cur
	d.version = p.TextDocument.Version
	s.markLocked(path, cur.src)
	return nil
}

func (s *server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	path, ok := s.path(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, open := s.docs[path]; !open {
		return nil
	}
	delete(s.docs, path)
	// Its statuses go (unless they are shown workspace-wide).
	s.backlog[path] = true
	// The file on disk counts again (an unsaved buffer closed without
	// saving leaves the disk as it was).
	s.markLocked(path, nil)
	return nil
}

func (s *server) DidChangeWatchedFiles(ctx context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range p.Changes {
		if path, ok := relPath(s.root, c.URI); ok {
			s.fileChangedLocked(path)
		}
	}
	return nil
}

// fileChangedLocked handles a file changed on disk: a config file makes
// the whole tree be read again; an .rst file is read again unless it is
// open (the buffer wins over the disk while it is open); any other
// (seg.lock) makes a new run, which reads it again.
func (s *server) fileChangedLocked(path string) {
	switch filepath.Base(filepath.FromSlash(path)) {
	case "seg.toml", "ubproject.toml", "conf.py":
		s.reload = true
		s.gen++
		s.cond.Broadcast()
		return
	}
	if _, open := s.docs[path]; open {
		return
	}
	s.markLocked(path, nil)
}

// rechecks asks for an analysis every so often while the server has had
// none for that long (Config.Recheck).
func (s *server) rechecks(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return
		}
		if s.snap != nil && !s.reload && len(s.pending) == 0 && time.Since(s.lastRun) >= every {
			s.recheck = true
			s.cond.Broadcast()
		}
		s.mu.Unlock()
	}
}

// analyze runs the engine whenever something changed, and publishes what
// changed in the findings: the open documents' first, then, in the
// background, the rest (publishRest), which an edit stops.
func (s *server) analyze(ctx context.Context) {
	first := true
	for {
		s.mu.Lock()
		for !s.closed && !s.reload && len(s.pending) == 0 && !s.recheck {
			s.cond.Wait()
		}
		if s.closed {
			s.mu.Unlock()
			return
		}
		reload := s.reload || s.snap == nil
		if reload && first {
			// The first analysis waits for initialized, after which an
			// editor opens its documents (at once), and for the first of
			// them a moment: they count from the start.
			s.mu.Unlock()
			select {
			case <-s.noted:
			case <-time.After(200 * time.Millisecond):
			case <-ctx.Done():
			}
			select {
			case <-s.opened:
			case <-time.After(firstOpenWait):
			case <-ctx.Done():
			}
			s.mu.Lock()
			first = false
		}
		changes := s.pending
		s.pending = map[string][]byte{}
		s.reload = false
		recheck := s.recheck && len(changes) == 0 && !reload
		s.recheck = false
		lastErr := s.loadErr
		gen := s.gen
		eng := s.eng
		prev := s.snap
		s.mu.Unlock()

		// buffers is what a load reads of the editor: every open
		// document, taken once the configuration is read (what arrived
		// until then is part of this analysis).
		buffers := func() map[string][]byte {
			s.mu.Lock()
			defer s.mu.Unlock()
			open := map[string][]byte{}
			for p, d := range s.docs {
				open[p] = d.text.src
			}
			s.pending = map[string][]byte{}
			gen = s.gen
			return open
		}
		var snap snapshot
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					s.log.Printf("panic in the analysis: %v\n%s", r, debug.Stack())
					err = fmt.Errorf("internal error in seg (a bug): %v", r)
				}
			}()
			if reload {
				snap, err = eng.load(buffers)
			} else {
				snap, err = eng.update(changes)
			}
		}()
		if snap == nil {
			snap = prev
		}
		if err != nil && !(recheck && lastErr != nil && lastErr.Error() == err.Error()) {
			// (A recheck that finds the same trouble does not say it again
			// every few seconds.)
			s.showMessage(protocol.MessageTypeError, "seg: "+err.Error())
		}
		s.mu.Lock()
		// A document opened or typed in while the tree was read: its
		// analysis comes first, and nothing is shown of one without it.
		hold := reload && s.openPendingLocked()
		s.mu.Unlock()
		// Publish before answering the requests that wait for this
		// analysis, so that an editor that asks after an edit has the
		// edit's diagnostics already.
		if snap != nil {
			var files []string
			if reload || prev == nil {
				files = snap.files()
			} else {
				files = snap.changedSince(prev)
			}
			s.publish(snap, files, reload, gen, hold)
			if !hold {
				s.announce(snap)
			}
		}
		s.mu.Lock()
		s.snap = snap
		s.snapGen = gen
		s.runs++
		s.loadErr = err
		s.lastRun = time.Now()
		s.cond.Broadcast()
		s.mu.Unlock()
		if reload {
			// Once the tree's diagnostics are out and the requests that
			// waited for them can be answered: the collection it forces
			// takes a third of a second on a large tree.
			go s.limitMemoryWhenPublished()
		}
	}
}

// firstOpenWait is how long the first analysis waits after initialized
// for the editor's first didOpen.
const firstOpenWait = 100 * time.Millisecond

// openPendingLocked reports whether an open document changed since the
// last analysis took the buffers.
func (s *server) openPendingLocked() bool {
	for p := range s.pending {
		if _, open := s.docs[p]; open {
			return true
		}
	}
	return false
}

// announce shows the findings that have no place in any file (a tree
// without requirements) as messages, once each time they change.
func (s *server) announce(snap snapshot) {
	var msgs []string
	for _, f := range snap.loose() {
		msgs = append(msgs, fmt.Sprintf("seg: %s [%s]", f.message, f.code))
	}
	key := strings.Join(msgs, "\n")
	s.mu.Lock()
	same := key == s.sentLoose
	s.sentLoose = key
	s.mu.Unlock()
	if same {
		return
	}
	for i, f := range snap.loose() {
		t := protocol.MessageTypeWarning
		if f.severity == sevError {
			t = protocol.MessageTypeError
		}
		s.showMessage(t, msgs[i])
	}
}

// limitMemory sets how the collector runs once the tree is read. An
// edit makes a new graph next to the old one; by default the collector
// runs whenever the heap has doubled since the last run, which for a
// large tree is every few edits, each time marking the whole tree. With
// a memory limit instead (editLimit), it runs when the limit nears:
// less often, and the process stays under the limit. GOGC or
// GOMEMLIMIT in the environment are the user's choice and left alone.
func (s *server) limitMemory() {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" || s.cfg.MemoryLimit < 0 {
		return
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	live := int64(ms.HeapAlloc)
	limit := editLimit(live, s.cfg.MemoryLimit)
	debug.SetMemoryLimit(limit)
	debug.SetGCPercent(-1)
	s.log.Printf("tree read: %d MB live, memory limit %d MB", live>>20, limit>>20)
}

// current waits for the analysis of every change received so far and
// returns it (nil when the server is closing).
func (s *server) current(ctx context.Context) snapshot {
	// Let later messages be read while this request waits.
	jsonrpc2.Async(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	want := s.gen
	for !s.closed && (s.snap == nil || s.snapGen < want) {
		s.cond.Wait()
	}
	if s.closed {
		return nil
	}
	return s.snap
}

// publish sends the diagnostics of the given files, of the open
// documents and of the files left over from the last analysis: the open
// documents' now, the others in the background (publishRest). With all,
// it also clears those of files that no longer have any. With hold, it
// sends nothing now: a newer analysis follows at once.
func (s *server) publish(snap snapshot, files []string, all bool, gen int, hold bool) {
	s.mu.Lock()
	set := s.set
	enc := s.enc
	pull := s.pull
	var open, rest []string
	for _, f := range files {
		s.backlog[f] = true
	}
	if all {
		for f := range s.sent {
			s.backlog[f] = true
		}
	}
	for f := range s.docs {
		s.backlog[f] = true
	}
	for f := range s.backlog {
		if _, ok := s.docs[f]; ok {
			open = append(open, f)
			delete(s.backlog, f)
		} else {
			rest = append(rest, f)
		}
	}
	s.mu.Unlock()
	s.pubMu.Lock()
	s.pubSeq++
	seq := s.pubSeq
	s.pubMu.Unlock()
	if pull {
		// The client asks for what it shows.
		s.mu.Lock()
		clear(s.backlog)
		s.mu.Unlock()
		if all && s.refresh && !hold {
			// (Not awaited: the read loop must stay free for the answer.)
			go func() {
				var res jsonrpc2.RawMessage
				s.conn.Call(context.Background(), protocol.MethodWorkspaceDiagnosticRefresh, nil, &res)
			}()
		}
		return
	}
	if hold {
		s.mu.Lock()
		for _, f := range open {
			s.backlog[f] = true
		}
		s.mu.Unlock()
		return
	}
	slices.Sort(open)
	s.publishFiles(snap, open, set, enc, seq, -1)
	if len(rest) > 0 {
		slices.Sort(rest)
		s.mu.Lock()
		s.background++
		s.mu.Unlock()
		go func() {
			s.publishFiles(snap, rest, set, enc, seq, gen)
			s.mu.Lock()
			s.background--
			s.cond.Broadcast()
			s.mu.Unlock()
		}()
	}
}

// backgroundPause slows the background publisher down, for the tests of
// its cancellation (export_test.go); 0 outside tests.
var backgroundPause time.Duration

// publishFiles publishes files on every core (at start-up there are
// thousands, each read and converted on its own). With gen >= 0 it runs
// in the background: it stops at the first edit after gen, or when a
// newer analysis publishes, and the files it did not reach stay in the
// backlog.
func (s *server) publishFiles(snap snapshot, files []string, set settings, enc encoding, seq, gen int) {
	next := make(chan string)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range next {
				s.publishFile(snap, f, set, enc, seq, gen)
			}
		}()
	}
	for _, f := range files {
		if gen >= 0 {
			s.mu.Lock()
			stop := s.gen != gen || s.closed
			s.mu.Unlock()
			if stop {
				break
			}
		}
		next <- f
	}
	close(next)
	wg.Wait()
}

// publishFile sends a file's diagnostics when they differ from the ones
// sent last, unless a newer analysis than seq publishes already; in the
// background (gen >= 0: the edits the analysis covers) it takes the file
// off the backlog, unless an edit came in since.
func (s *server) publishFile(snap snapshot, f string, set settings, enc encoding, seq, gen int) {
	if gen >= 0 && backgroundPause > 0 {
		time.Sleep(backgroundPause)
	}
	diags := s.lspDiagnostics(snap, f, set, enc, s.isOpen(f))
	if r, ok := snap.(releaser); ok {
		r.release()
	}
	key, _ := protocol.Marshal(diags)
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	if s.pubSeq != seq {
		return
	}
	s.mu.Lock()
	if gen >= 0 {
		if _, open := s.docs[f]; open || s.gen != gen {
			// (An edit came in, or the file was opened: the next analysis
			// publishes it.)
			s.mu.Unlock()
			return
		}
		delete(s.backlog, f)
	}
	old, had := s.sent[f]
	if had && old == string(key) || !had && len(diags) == 0 {
		s.mu.Unlock()
		return
	}
	if len(diags) == 0 {
		delete(s.sent, f)
	} else {
		s.sent[f] = string(key)
	}
	s.mu.Unlock()
	s.conn.Notify(context.Background(), protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{
		URI: s.uriOf(f), Diagnostics: diags,
	})
}

func (s *server) isOpen(f string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.docs[f]
	return ok
}

// textOf is the text positions in a file are converted with: the text
// the snapshot analysed.
func textOf(snap snapshot, file string) *text {
	return newText(snap.text(file))
}

// lspDiagnostics converts a file's findings; a requirement's status is
// one only in an open document, unless set says workspace.
func (s *server) lspDiagnostics(snap snapshot, file string, set settings, enc encoding, open bool) []protocol.Diagnostic {
	fs := snap.findings(file)
	out := []protocol.Diagnostic{}
	if len(fs) == 0 {
		return out
	}
	t := textOf(snap, file)
	texts := map[string]*text{file: t}
	for _, f := range fs {
		sev := lspSeverity(f.severity)
		if f.code == "unsatisfied" {
			if !open && !set.workspaceStatuses() {
				continue
			}
			switch set.UnsatisfiedSeverity {
			case "off":
				continue
			case "information", "info":
				sev = protocol.DiagnosticSeverityInformation
			case "hint":
				sev = protocol.DiagnosticSeverityHint
			case "warning":
				sev = protocol.DiagnosticSeverityWarning
			case "error":
				sev = protocol.DiagnosticSeverityError
			}
		}
		msg := f.message
		d := protocol.Diagnostic{
			Range:    t.rangeOf(f.span, enc),
			Severity: sev,
			Code:     protocol.String(f.code),
			Source:   protocol.NewOptional("seg"),
			Message:  protocol.String(msg),
		}
		if set.CodesBaseURL != "" {
			d.CodeDescription = protocol.CodeDescription{Href: uri.URI(set.CodesBaseURL + f.code)}
		}
		for _, r := range f.related {
			rt := texts[r.file]
			if rt == nil {
				rt = textOf(snap, r.file)
				texts[r.file] = rt
			}
			d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: uri.URI(s.uriOf(r.file)), Range: rt.rangeOf(r.span, enc)},
				Message:  r.message,
			})
		}
		out = append(out, d)
	}
	return out
}

func lspSeverity(s severity) protocol.DiagnosticSeverity {
	switch s {
	case sevError:
		return protocol.DiagnosticSeverityError
	case sevWarning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

// docText is the current text of a file: the open buffer, else the one
// the snapshot read.
func (s *server) docText(snap snapshot, file string) *text {
	s.mu.Lock()
	d := s.docs[file]
	s.mu.Unlock()
	if d != nil && bytes.Equal(d.text.src, snap.text(file)) {
		return d.text
	}
	return textOf(snap, file)
}
