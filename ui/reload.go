package ui

import (
	"errors"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// Reloader is an Engine that can re-read its instance's job file: the
// in-process engine of an instance started with one, or a client of
// another instance's API. Reload applies the file as it is now and says
// what changed in a line ("reloaded jobtop.yaml: 1 added (api)"); a file
// with problems changes nothing and is an error, also one line. When the
// error (or one it wraps) has a JobFileProblems() []string method, the
// TUI lists every problem in a panel.
type Reloader interface {
	Reload() (string, error)
}

// problemLister is an error that lists a job file's problems, each
// "FILE:LINE:COL: what is wrong".
type problemLister interface {
	JobFileProblems() []string
}

// FileLister is a Reloader that says which files its job file is read
// from now (a reload can add one: an extends:, an override file), so
// messages name them all. It is asked after each reload, off the Update
// goroutine.
type FileLister interface {
	JobFiles() []string
}

// reloadDoneMsg reports the end of a reload, run off the Update goroutine.
type reloadDoneMsg struct {
	summary string
	err     error
	files   []string // the job file's files now; nil: not known
}

// canReload says whether R applies: the instance has a job file and the
// engine can reload it.
func (m *Model) canReload() bool {
	_, ok := m.engine.(Reloader)
	return ok && m.cfg.JobFile != ""
}

// reload re-reads the job file as a command.
func (m *Model) reload() tea.Cmd {
	r, ok := m.engine.(Reloader)
	if !ok {
		return nil
	}
	m.setNotice("reloading "+m.jobFileNames()+"…", false)
	m.reloading = true
	return func() tea.Msg {
		summary, err := r.Reload()
		msg := reloadDoneMsg{summary: summary, err: err}
		if fl, ok := r.(FileLister); ok {
			msg.files = fl.JobFiles()
		}
		return msg
	}
}

// jobFileNames names the job file by its base name, or, when it is merged
// from several, each of them joined by " + ", as reload's summary does.
func (m *Model) jobFileNames() string {
	if len(m.cfg.JobFiles) < 2 {
		return filepath.Base(m.cfg.JobFile)
	}
	bases := make([]string, len(m.cfg.JobFiles))
	for i, f := range m.cfg.JobFiles {
		bases[i] = filepath.Base(f)
	}
	return strings.Join(bases, " + ")
}

// handleReloadDone shows what the reload did, or why it did nothing.
func (m *Model) handleReloadDone(msg reloadDoneMsg) tea.Cmd {
	m.reloading = false
	if msg.files != nil {
		m.cfg.JobFiles = msg.files
	}
	// What the reload added is no news from outside; one that failed at
	// once is marked and rings all the same, under the reload's word.
	added := m.takeNewJobs()
	alerts := make([]tea.Cmd, 0, len(added))
	for i := range added {
		alerts = append(alerts, m.noteFirstSeen(added[i]))
	}
	var pl problemLister
	switch {
	case errors.As(msg.err, &pl) && len(pl.JobFileProblems()) > 0:
		m.showReloadProblems(pl.JobFileProblems())
	case msg.err != nil:
		m.setNotice(msg.err.Error(), true)
	default:
		m.setNotice(msg.summary, false)
	}
	return tea.Batch(alerts...)
}

// showReloadProblems covers the screen with every problem of the job
// file, as jobtop reload prints them, until esc closes it; the status bar
// says it too.
func (m *Model) showReloadProblems(problems []string) {
	what := "cannot reload " + m.jobFileNames() + ": " + plural(len(problems), "problem") + "; nothing was changed"
	m.setNotice(what, true)
	m.openPanel(newPanel(&m.km, m.pal, what+" — esc closes", func(width int) []string {
		out := m.wrappedRows(problems, width, m.pal.errText)
		return append(out, "", m.pal.muted.Wrap("fix the file, then R reloads it"))
	}))
}
