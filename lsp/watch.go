package lsp

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// poller notices files created, changed or deleted outside the editor
// when the client cannot watch them for the server: it lists the tree's
// .rst files and config files every interval and compares sizes and
// modification times. It only reads.
type poller struct {
	root    string
	every   time.Duration
	changed func(paths []string)
	stopped chan struct{}
	once    sync.Once
	seen    map[string]fileStamp
}

type fileStamp struct {
	size int64
	mod  time.Time
}

func newPoller(root string, every time.Duration, changed func([]string)) *poller {
	p := &poller{root: root, every: every, changed: changed, stopped: make(chan struct{})}
	p.seen = p.scan()
	go p.loop()
	return p
}

func (p *poller) stop() { p.once.Do(func() { close(p.stopped) }) }

func (p *poller) loop() {
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		select {
		case <-p.stopped:
			return
		case <-t.C:
		}
		now := p.scan()
		var diff []string
		for path, st := range now {
			if old, ok := p.seen[path]; !ok || old != st {
				diff = append(diff, path)
			}
		}
		for path := range p.seen {
			if _, ok := now[path]; !ok {
				diff = append(diff, path)
			}
		}
		p.seen = now
		if len(diff) > 0 {
			p.changed(diff)
		}
	}
}

// watchedName reports whether a file's changes matter to the analysis.
func watchedName(name string) bool {
	return strings.HasSuffix(name, ".rst") || name == "seg.toml" || name == "ubproject.toml" || name == "conf.py" || name == "seg.lock"
}

func (p *poller) scan() map[string]fileStamp {
	out := map[string]fileStamp{}
	filepath.WalkDir(p.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if path != p.root && (strings.HasPrefix(name, ".") || name == "_build" || name == "node_modules" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !watchedName(name) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		rel, err := filepath.Rel(p.root, path)
		if err != nil {
			return nil
		}
		out[filepath.ToSlash(rel)] = fileStamp{info.Size(), info.ModTime()}
		return nil
	})
	return out
}
