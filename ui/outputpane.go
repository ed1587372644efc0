package ui

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
	"jobtop/keymap"
)

// paneKind says what an output pane shows.
type paneKind uint8

const (
	jobPane paneKind = iota // one job's output
	allPane                 // every job's lines in arrival order
)

// outputPane shows output: one job's, or every job's (the "all" view). It
// reads only the lines it shows from a lineSource and lays them out when
// they change (refresh); View only joins the rows. Lines are addressed by
// their key in the source.
type outputPane struct {
	km  *keymap.KeyMap
	pal *palette

	kind   paneKind
	job    jobs.Info // the job shown (job panes)
	has    bool
	base   searchableSource
	search *paneSearch    // nil when there is none
	sel    *lineSelection // nil unless selecting lines to copy (v)
	// logSearch, when on, searches the job's log files and is the source.
	logSearch *logSearch
	// names gives job names for the "all" view's prefixes.
	names *jobNames

	// follow keeps the newest output in view; when it is off, top is the
	// first row shown.
	follow bool
	wrap   bool
	// xoff is how many cells each line is scrolled left by (wrap off);
	// cut says a row on screen is cut at the right edge.
	xoff int
	cut  bool
	top  position
	// below counts lines after the last one shown.
	below uint64

	rows    []string
	widths  []int     // cells of each row
	rowKeys []lineKey // key of the line each row belongs to
	width   int
	height  int // includes the header row
	focused bool
	header  headerCache
	// now is the model's clock, as the table's (SetNow): the header says
	// how long ago an ended job ended against it.
	now time.Time
	// scr is set while the job is in screen mode: the pane draws its
	// terminal's screen instead of lines (screenpane.go).
	scr *paneScreen
	// typing says keys go to the job (input mode).
	typing bool
	// offScreen says the pane was scrolled up from a screen to the job's
	// lines: it stays paused on them even when they all fit, until G,
	// f or scrolling down brings the screen back (Model.syncScreens).
	offScreen bool
	// held says a search match was moved to (n/N): the view stays on it,
	// paused even when every line fits, until G, f or a scroll.
	held bool
	// searchLeftScreen says the search shown was asked for on a screen:
	// clearing it (esc) goes back to the screen.
	searchLeftScreen bool
}

// position is a row of the output: a line and a row within it (only
// wrapped lines have more than one).
type position struct {
	key lineKey
	row int
}

func (a position) before(b position) bool {
	return a.key.less(b.key) || (a.key == b.key && a.row < b.row)
}

func newOutputPane(km *keymap.KeyMap, pal *palette) *outputPane {
	return &outputPane{km: km, pal: pal, follow: true}
}

// SetNow sets the time the header counts an ended job's age to.
func (p *outputPane) SetNow(now time.Time) { p.now = now }

// Init implements tea.Model.
func (p *outputPane) Init() tea.Cmd { return nil }

// Update scrolls and toggles modes on the pane's keys.
func (p *outputPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	if p.scr != nil {
		// A screen does not scroll: scrolling up shows the job's lines
		// (as a terminal's scrollback), until the view is back at the
		// bottom and the screen shows again (Model.syncScreens).
		if !key.Matches(k, p.km.LineUp, p.km.HalfPageUp, p.km.Top) {
			return p, nil
		}
		p.leaveScreen()
	}
	half := max(p.bodyHeight()/2, 1)
	switch {
	case key.Matches(k, p.km.LineUp):
		p.scrollUp(1)
	case key.Matches(k, p.km.LineDown):
		p.scrollDown(1)
	case key.Matches(k, p.km.HalfPageUp):
		p.scrollUp(half)
	case key.Matches(k, p.km.HalfPageDown):
		p.scrollDown(half)
	case key.Matches(k, p.km.Top):
		p.scrollToTop()
	case key.Matches(k, p.km.Bottom):
		p.follow, p.held = true, false
	case key.Matches(k, p.km.Follow):
		p.follow, p.held = !p.follow, false
	case key.Matches(k, p.km.Wrap):
		p.wrap = !p.wrap
		p.top.row, p.xoff = 0, 0
	case key.Matches(k, p.km.ScrollLeft):
		p.scrollSideways(-1)
	case key.Matches(k, p.km.ScrollRight):
		p.scrollSideways(1)
	default:
		return p, nil
	}
	p.refresh()
	return p, nil
}

// UpdateKeys enables the pane's keys when it has the focus.
func (p *outputPane) UpdateKeys(km *keymap.KeyMap) {
	if p.scr != nil {
		p.screenKeys(km)
		return
	}
	for _, b := range []*key.Binding{
		&km.LineUp, &km.LineDown, &km.HalfPageUp, &km.HalfPageDown,
		&km.Top, &km.Bottom, &km.Follow, &km.Wrap, &km.Search,
	} {
		b.SetEnabled(p.focused)
	}
	searching := p.focused && p.search != nil
	km.NextMatch.SetEnabled(searching)
	km.PrevMatch.SetEnabled(searching)
	km.FilterMatches.SetEnabled(searching)
	km.ClearSearch.SetEnabled(searching)
	km.LogSearch.SetEnabled(searching && p.kind == jobPane)
	km.FocusTable.SetEnabled(p.focused && !searching)
	km.ScrollLeft.SetEnabled(p.focused && !p.wrap && p.xoff > 0)
	km.ScrollRight.SetEnabled(p.focused && !p.wrap && p.cut)
}

// SetSize sets the pane's size; height counts the header row.
func (p *outputPane) SetSize(width, height int) {
	if width != p.width || height != p.height {
		p.width, p.height = width, max(height, 0)
		p.refresh()
	}
}

// SetFocused says whether the pane has the focus.
func (p *outputPane) SetFocused(f bool) {
	if f != p.focused && p.scr != nil {
		p.focused = f
		p.refresh() // only the focused pane draws the cursor
	}
	p.focused = f
}

// Following reports whether follow mode is on.
func (p *outputPane) Following() bool { return p.follow }

// Wrapping reports whether long lines wrap.
func (p *outputPane) Wrapping() bool { return p.wrap }

// JobID is the job shown, or 0 (none, or the "all" view).
func (p *outputPane) JobID() jobs.ID {
	if !p.has || p.kind != jobPane {
		return 0
	}
	return p.job.ID
}

// SetJob shows a job (has false: none). Showing another job starts in
// follow mode with no search; the same job keeps its position and only
// refreshes.
func (p *outputPane) SetJob(info jobs.Info, has bool, reader jobs.OutputReader) {
	if !has || reader == nil {
		p.job, p.has, p.base, p.search, p.scr = jobs.Info{}, false, nil, nil, nil
		p.rows, p.widths, p.rowKeys = p.rows[:0], p.widths[:0], p.rowKeys[:0]
		return
	}
	if !p.has || info.ID != p.job.ID {
		p.follow, p.top, p.below, p.search, p.xoff, p.scr, p.sel = true, position{}, 0, nil, 0, nil, nil
		p.logSearch, p.held = nil, false
	}
	p.kind, p.job, p.has = jobPane, info, true
	p.base = jobSource{id: info.ID, reader: reader}
	p.refresh()
}

// SetAll makes the pane the "all" view over src.
func (p *outputPane) SetAll(src *allSource, names *jobNames) {
	p.kind, p.has, p.base, p.names = allPane, true, src, names
	p.refresh()
}

// SetInfo updates the shown job's snapshot (state, name) without reading
// output.
func (p *outputPane) SetInfo(info jobs.Info) {
	if p.has && p.kind == jobPane && info.ID == p.job.ID {
		p.job = info
	}
}

// shows reports whether the pane reads a job's output.
func (p *outputPane) shows(id jobs.ID) bool {
	if !p.has {
		return false
	}
	if p.kind == allPane {
		return p.base.readerOf(id) != nil
	}
	return p.job.ID == id
}

// source is what the pane reads: the job's output with jobtop's notes
// (see notedSource), or with the filter on only the search's matches.
func (p *outputPane) source() lineSource {
	if p.logSearch != nil {
		return p.logSearch
	}
	if p.search != nil && p.search.filter {
		return filteredSource{s: p.search, src: p.base}
	}
	return p.noted(p.base)
}

func (p *outputPane) bodyHeight() int { return max(p.height-1, 0) }
