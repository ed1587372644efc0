package ui

import (
	"bufio"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// The o key in the "all" view: the pager gets what the view shows, every
// job's lines in the order they arrived behind their names (only the
// matches under &), not one job's log. No file holds that stream, so it
// is written, off the Update goroutine, to a file of jobtop's state
// (allPagerDir) that goes when the pager ends.

// allPagerDir is where those files are written, under jobs.DefaultStateDir:
// allPagerPrefix, jobtop's PID, a random part. A file whose jobtop died
// before its pager ended is removed by the next TUI to start or to open
// one.
const (
	allPagerDir    = "pager"
	allPagerPrefix = "all-"
	// allPagerChunk is how many lines one read of the stores takes.
	allPagerChunk = 1024
)

// allPagerReadyMsg says the "all" view's lines are written to path, for
// the pager to open.
type allPagerReadyMsg struct {
	path string
	err  error
}

// allLines is what writing the "all" view's lines needs, taken on the
// Update goroutine: the jobs' readers (safe from any goroutine), each
// job's prefix, and the view's filter.
type allLines struct {
	src      *allSource
	prefixes map[jobs.ID]string
	head     string            // the note on lines no longer in memory, or ""
	keep     func(string) bool // nil: every line
	keepSGR  bool
	noColour bool // the colours left out, attributes kept (NO_COLOR)
}

// openAllPager writes the lines the "all" view shows to a file and then
// opens the pager on it (allPagerReadyMsg).
func (m *Model) openAllPager() tea.Cmd {
	p := m.all
	base, ok := p.base.(*allSource)
	if !ok || !p.has {
		return nil
	}
	src := &allSource{ids: slices.Clone(base.ids), readers: maps.Clone(base.readers)}
	al := allLines{src: src, prefixes: make(map[jobs.ID]string, len(src.ids)), keepSGR: p.pal.st.KeepJobAttributes, noColour: !p.pal.st.KeepJobColours}
	for _, id := range src.ids {
		al.prefixes[id], _, _ = p.names.prefix(id, p.width)
	}
	if s := p.search; s != nil && s.filter {
		mt := s.m
		al.keep = func(text string) bool { return len(mt.find(plainText(text), nil)) > 0 }
	} else if note := p.allDroppedNote(src); note != nil {
		al.head = sanitize(note.Text, false)
	}
	return func() tea.Msg {
		state, err := jobs.DefaultStateDir()
		if err != nil {
			return allPagerReadyMsg{err: err}
		}
		path, err := al.writeFile(filepath.Join(state, allPagerDir))
		return allPagerReadyMsg{path: path, err: err}
	}
}

// handleAllPagerReady opens the pager on the lines written, and removes
// their file once it has ended.
func (m *Model) handleAllPagerReady(msg allPagerReadyMsg) tea.Cmd {
	if msg.err != nil {
		m.refuse("cannot hand the all view to the pager: " + msg.err.Error())
		return nil
	}
	return m.runPager(pagerCommand(os.Getenv("PAGER"), msg.path), func() { os.Remove(msg.path) }) //nolint:errcheck // gone already is as good
}

// writeFile writes the lines to a new file in dir, and returns its path.
func (al allLines) writeFile(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	removeOrphanedPagerFiles(dir)
	f, err := os.CreateTemp(dir, allPagerPrefix+strconv.Itoa(os.Getpid())+"-*.txt")
	if err != nil {
		return "", err
	}
	w := bufio.NewWriter(f)
	al.write(w)
	err = errors.Join(w.Flush(), f.Close())
	if err != nil {
		os.Remove(f.Name()) //nolint:errcheck // the error said is the write's
		return "", err
	}
	return f.Name(), nil
}

// write writes the lines, oldest first, up to the newest there was when
// it began (a job writing on cannot keep it going).
func (al allLines) write(w *bufio.Writer) {
	if al.head != "" {
		w.WriteString(al.head + "\n") //nolint:errcheck // Flush says
	}
	newest := al.src.tail(1)
	k, ok := al.src.oldest()
	if len(newest) == 0 || !ok {
		return
	}
	last := newest[0].key
	for {
		lines := al.src.from(k, allPagerChunk)
		for _, l := range lines {
			if last.less(l.key) {
				return
			}
			if al.keep != nil && !al.keep(l.Text) {
				continue
			}
			w.WriteString(al.prefixes[l.job]) //nolint:errcheck // Flush says
			f := lineFormat{keepSGR: al.keepSGR && l.Stream != jobs.Meta, noColour: al.noColour}
			w.WriteString(layoutLine(nil, l.Text, f)[0]) //nolint:errcheck // Flush says
			w.WriteByte('\n')                            //nolint:errcheck // Flush says
		}
		if len(lines) < allPagerChunk {
			return
		}
		k = lines[len(lines)-1].key.next()
	}
}

// RemoveOrphanedPagerFiles removes the all view's pager files of jobtops
// that died with their pager open (they hold jobs' output), as a TUI
// starts: the next all-view pager would, but may never come.
func RemoveOrphanedPagerFiles() {
	if state, err := jobs.DefaultStateDir(); err == nil {
		removeOrphanedPagerFiles(filepath.Join(state, allPagerDir))
	}
}

// removeOrphanedPagerFiles removes the files in dir of jobtops that died
// with their pager open.
func removeOrphanedPagerFiles(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), allPagerPrefix)
		pid, err := strconv.Atoi(strings.SplitN(rest, "-", 2)[0])
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			os.Remove(filepath.Join(dir, e.Name())) //nolint:errcheck // another jobtop may have just done it
		}
	}
}
