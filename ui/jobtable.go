package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
	"jobtop/keymap"
	"jobtop/styles"
	"jobtop/termtext"
)

// jobTable is the list of jobs: one row each, in ID order, with the
// selection kept on the same job as rows come and go. It draws only the
// rows it shows. A filter (jobFilter) hides the rows that do not match;
// marks before each row show the jobs chosen for the split view and what
// happened that was not seen.
type jobTable struct {
	km  *keymap.KeyMap
	pal *palette

	jobs     []jobs.Info
	index    map[jobs.ID]int
	selected jobs.ID // 0 when no job is shown
	offset   int     // the first row shown

	filter    jobFilter
	hideEnded bool    // ended jobs are hidden (H)
	typedInto jobs.ID // shown though it ended and H hides ended jobs (KeepTyped)
	rows      []int   // indices into jobs of the rows shown, when Filtering
	rowOf     map[jobs.ID]int
	marked    map[jobs.ID]bool
	unseen    map[jobs.ID]attention

	width, height int // height includes the header row
	cols          []column
	longestName   int
	nameWidths    map[jobs.ID]int // each job's NAME width, measured once per name
	idsDirty      bool            // jobs came or went: maxID and hostWidth are stale
	maxID         int             // the widest ID shown (tableIDs)
	hostWidth     int             // the HOST column's width, 0 for none
	overflow      bool            // the columns are wider than the table; rows are cut
	focused       bool
	now           time.Time
	activity      *activity   // the sparklines' data; nil for none
	quiet         *quietWatch // the jobs marked quiet; nil for none
}

func newJobTable(km *keymap.KeyMap, pal *palette) *jobTable {
	return &jobTable{
		km: km, pal: pal, index: make(map[jobs.ID]int), focused: true,
		rowOf: make(map[jobs.ID]int), marked: make(map[jobs.ID]bool), unseen: make(map[jobs.ID]attention),
		nameWidths: make(map[jobs.ID]int),
	}
}

// Init implements tea.Model.
func (t *jobTable) Init() tea.Cmd { return nil }

// Update moves the selection on the table's keys.
func (t *jobTable) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return t, nil
	}
	switch {
	case key.Matches(k, t.km.TableUp):
		t.moveBy(-1)
	case key.Matches(k, t.km.TableDown):
		t.moveBy(1)
	case key.Matches(k, t.km.TableTop):
		t.moveTo(0)
	case key.Matches(k, t.km.TableBottom):
		t.moveTo(t.Len() - 1)
	case key.Matches(k, t.km.TablePageUp):
		t.moveBy(-max(t.visibleRows(), 1))
	case key.Matches(k, t.km.TablePageDown):
		t.moveBy(max(t.visibleRows(), 1))
	case key.Matches(k, t.km.Mark):
		if t.selected != 0 {
			t.marked[t.selected] = !t.marked[t.selected]
			if !t.marked[t.selected] {
				delete(t.marked, t.selected)
			}
		}
	}
	return t, nil
}

// UpdateKeys enables the table's keys when it has the focus.
func (t *jobTable) UpdateKeys(km *keymap.KeyMap) {
	for _, b := range []*key.Binding{&km.TableUp, &km.TableDown, &km.TableTop, &km.TableBottom, &km.TablePageUp, &km.TablePageDown} {
		b.SetEnabled(t.focused && t.Len() > 1)
	}
	km.FocusOutput.SetEnabled(t.focused && t.Len() > 0)
	km.Mark.SetEnabled(t.focused && t.selected != 0)
	km.FilterJobs.SetEnabled(t.focused && len(t.jobs) > 0)
	km.ClearFilter.SetEnabled(t.focused && t.filter.active())
}

// SetSize sets the table's size; height counts the header row.
func (t *jobTable) SetSize(width, height int) {
	t.width, t.height = width, max(height, 0)
	t.relayout()
	t.scrollToSelection()
}

func (t *jobTable) relayout() {
	if t.idsDirty {
		t.maxID, t.hostWidth = tableIDs(t.jobs)
		t.idsDirty = false
	}
	t.cols = withActivityColumns(withHostColumn(t.width, t.maxID, t.longestName, t.hostWidth))
	used := markerWidth
	for i, c := range t.cols {
		used += c.width
		if i > 0 {
			used += colSep
		}
	}
	t.overflow = used > t.width
}

// SetFocused says whether the table has the focus.
func (t *jobTable) SetFocused(f bool) { t.focused = f }

// SetNow sets the time run times are counted to.
func (t *jobTable) SetNow(now time.Time) { t.now = now }

// Len is the number of rows shown (the jobs that pass the filter).
func (t *jobTable) Len() int {
	if t.Filtering() {
		return len(t.rows)
	}
	return len(t.jobs)
}

// row is the job in row i of the rows shown.
func (t *jobTable) row(i int) jobs.Info {
	if t.Filtering() {
		return t.jobs[t.rows[i]]
	}
	return t.jobs[i]
}

// Jobs returns every job in ID order, filtered or not; the slice must not
// be changed.
func (t *jobTable) Jobs() []jobs.Info { return t.jobs }

// Selected returns the selected job.
func (t *jobTable) Selected() (jobs.Info, bool) {
	i, ok := t.index[t.selected]
	if !ok {
		return jobs.Info{}, false
	}
	return t.jobs[i], true
}

// Get returns the job with that ID.
func (t *jobTable) Get(id jobs.ID) (jobs.Info, bool) {
	i, ok := t.index[id]
	if !ok {
		return jobs.Info{}, false
	}
	return t.jobs[i], true
}

// Upsert adds a job or replaces its snapshot, and returns the snapshot it
// replaced, if any. The first job added is selected.
func (t *jobTable) Upsert(info jobs.Info) (old jobs.Info, existed bool) {
	if i, ok := t.index[info.ID]; ok {
		old = t.jobs[i]
		t.jobs[i] = info
		if old.Name != info.Name || old.Origin != info.Origin {
			t.measureName(info)
			t.relayout()
		}
		return old, true
	}
	n := len(t.jobs)
	t.idsDirty = true
	t.measureName(info)
	if n == 0 || t.jobs[n-1].ID < info.ID {
		t.jobs = append(t.jobs, info)
		t.index[info.ID] = n
		t.appended()
	} else {
		at := 0
		for at < n && t.jobs[at].ID < info.ID {
			at++
		}
		t.jobs = append(t.jobs, jobs.Info{})
		copy(t.jobs[at+1:], t.jobs[at:])
		t.jobs[at] = info
		t.reindex(at)
		t.Refilter()
	}
	t.relayout()
	return jobs.Info{}, false
}

// measureName measures a job's NAME cell once per name, and keeps the
// longest.
func (t *jobTable) measureName(info jobs.Info) {
	old, had := t.nameWidths[info.ID]
	w := tableNameWidth(info)
	t.nameWidths[info.ID] = w
	switch {
	case w > t.longestName:
		t.longestName = w
	case had && old == t.longestName && w < old:
		t.remeasureNames() // it may have been the longest
	}
}

// remeasureNames finds the longest name again, from the widths measured.
func (t *jobTable) remeasureNames() {
	t.longestName = 0
	for _, w := range t.nameWidths {
		t.longestName = max(t.longestName, w)
	}
}

// appended filters the job just added as the last row: the others' rows
// stay as they are (a file of a thousand jobs arrives one by one).
func (t *jobTable) appended() {
	if !t.Filtering() {
		t.Refilter() // cheap: no rows to pick
		return
	}
	last := len(t.jobs) - 1
	if t.shows(t.jobs[last]) {
		t.rowOf[t.jobs[last].ID] = len(t.rows)
		t.rows = append(t.rows, last)
	}
	if t.selected == 0 && t.Len() > 0 {
		t.selected = t.row(0).ID
	}
	t.scrollToSelection()
}

// Remove drops a job. When it was selected, the job now in its row (or
// the one above, for the last row) is selected.
func (t *jobTable) Remove(id jobs.ID) {
	i, ok := t.index[id]
	if !ok {
		return
	}
	row := t.cursor()
	delete(t.index, id)
	delete(t.marked, id)
	delete(t.unseen, id)
	t.jobs = append(t.jobs[:i], t.jobs[i+1:]...)
	t.reindex(i)
	wasSelected := t.selected == id
	w := t.nameWidths[id]
	delete(t.nameWidths, id)
	if w == t.longestName {
		t.remeasureNames()
	}
	t.idsDirty = true
	if wasSelected {
		t.selected = 0
	}
	t.Refilter()
	if wasSelected && t.Len() > 0 {
		t.selected = t.row(min(row, t.Len()-1)).ID
	}
	t.relayout()
	t.scrollToSelection()
}

// Select selects a job by ID, if the table shows it.
func (t *jobTable) Select(id jobs.ID) {
	if _, ok := t.rowIndex(id); ok {
		t.selected = id
		t.scrollToSelection()
	}
}

func (t *jobTable) cursor() int {
	i, _ := t.rowIndex(t.selected)
	return i
}

func (t *jobTable) moveBy(n int) { t.moveTo(t.cursor() + n) }

func (t *jobTable) moveTo(i int) {
	if t.Len() == 0 {
		return
	}
	i = min(max(i, 0), t.Len()-1)
	t.selected = t.row(i).ID
	t.scrollToSelection()
}

// RowAt is the job drawn on line y of the table's view (0 is the
// header).
func (t *jobTable) RowAt(y int) (jobs.ID, bool) {
	i := t.offset + y - 1
	if y < 1 || y >= t.height || i >= t.Len() {
		return 0, false
	}
	return t.row(i).ID, true
}

// visibleRows is how many job rows fit under the header.
func (t *jobTable) visibleRows() int { return max(t.height-1, 0) }

// scrollToSelection keeps the selected row in view and the view full.
func (t *jobTable) scrollToSelection() {
	rows := t.visibleRows()
	c := t.cursor()
	if c < t.offset {
		t.offset = c
	}
	if rows > 0 && c >= t.offset+rows {
		t.offset = c - rows + 1
	}
	t.offset = max(min(t.offset, t.Len()-rows), 0)
}

// View draws the header and the visible rows: exactly height lines.
func (t *jobTable) View() string {
	if t.height <= 0 || t.width <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(t.headerView())
	rows := t.visibleRows()
	for r := 0; r < rows; r++ {
		b.WriteByte('\n')
		i := t.offset + r
		switch {
		case i < t.Len():
			b.WriteString(t.rowView(t.row(i)))
		case i == 0 && t.filter.active():
			b.WriteString(t.pal.muted.Wrap(cut("    no job matches /"+sanitize(t.filter.text, false)+" — esc shows every job", t.width)))
		case i == 0 && t.hideEnded && len(t.jobs) > 0:
			b.WriteString(t.pal.muted.Wrap(cut("    "+plural(len(t.jobs), "ended job")+" hidden — H shows them", t.width)))
		case i == 0:
			b.WriteString(t.pal.muted.Wrap(cut("    no jobs — a: add a job", t.width)))
		}
	}
	return b.String()
}

func (t *jobTable) headerView() string {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", markerWidth))
	for i, c := range t.cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fit(c.title, c.width, c.right))
	}
	return t.pal.header.Wrap(t.withCount(b.String()))
}

func (t *jobTable) rowView(info jobs.Info) string {
	selected := info.ID == t.selected
	rowSeq := t.pal.selected
	if !t.focused {
		rowSeq = t.pal.blur
	}
	var b strings.Builder
	if selected {
		b.WriteString(rowSeq.Open)
		if t.focused {
			b.WriteString("▸")
		} else {
			b.WriteString("▹")
		}
	} else {
		b.WriteString(" ")
	}
	mark := func(text string, seq styles.Seq) {
		b.WriteString(seq.Open + text + seq.Close)
		if selected && seq.Open != "" {
			b.WriteString(rowSeq.Open)
		}
	}
	if t.marked[info.ID] {
		mark("◆", t.pal.marked)
	} else {
		b.WriteByte(' ')
	}
	switch a := t.unseen[info.ID]; {
	case a&unseenEnd != 0:
		mark("!", t.pal.states[info.State])
	case a&unseenOutput != 0:
		mark("•", t.pal.unseen)
	case t.quiet != nil && t.quiet.isQuiet(info.ID):
		mark("…", t.pal.paused)
	default:
		b.WriteByte(' ')
	}
	b.WriteByte(' ')
	for i, c := range t.cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		text, seq := t.cell(info, c)
		cell := fit(text, c.width, c.right)
		if seq.Open == "" {
			b.WriteString(cell)
			continue
		}
		b.WriteString(seq.Open)
		b.WriteString(cell)
		b.WriteString(seq.Close)
		if selected {
			b.WriteString(rowSeq.Open)
		}
	}
	if selected {
		b.WriteString(rowSeq.Close)
	}
	if t.overflow {
		return truncateText(b.String(), t.width, "")
	}
	return b.String()
}

// cell is the text of one cell and the style it is drawn in.
func (t *jobTable) cell(info jobs.Info, c column) (string, styles.Seq) {
	switch c.kind {
	case colID:
		return shownID(info).String(), styles.Seq{}
	case colHost:
		return label(info.Host), styles.Seq{}
	case colName:
		return tableName(info, c.width), styles.Seq{}
	case colStatus:
		if info.RestartAt != nil && info.State.Done() {
			// Its exit is in EXIT: the column has room for the restart.
			return stateSymbol(info.State) + " " + stateLabel(info.State) + countdown(info, t.now), t.pal.states[info.State]
		}
		return statusText(info) + countdown(info, t.now), t.pal.states[info.State]
	case colPID:
		if info.State.Active() && info.PID > 0 {
			return strconv.Itoa(info.PID), styles.Seq{}
		}
	case colTime:
		if info.Started != nil && info.State != jobs.StateQueued {
			return formatRuntime(info.Runtime(t.now)), styles.Seq{}
		}
	case colExit:
		if info.ExitCode != nil && info.State.Done() {
			return strconv.Itoa(*info.ExitCode), styles.Seq{}
		}
	case colCPU:
		if info.State.Active() && info.Usage.RSS > 0 {
			return formatCPU(info.Usage.CPU), styles.Seq{}
		}
	case colRSS:
		if info.State.Active() && info.Usage.RSS > 0 {
			return formatBytes(info.Usage.RSS), styles.Seq{}
		}
	case colLines: // the job's, not jobtop's "── run 2 ──" markers
		return formatCount(info.JobLines()), styles.Seq{}
	case colOutput:
		return t.outputCell(info, c.width)
	case colActivity, colCPUSpark:
		return t.sparkCell(info, c), t.pal.muted
	}
	return "", styles.Seq{}
}

// outputCell is the job's last output line, or why it has none. A job
// on the alternate screen says so instead: its last line is from before
// the screen. (On the main screen, it is the last row the program drew,
// as a progress display's or an inline TUI's.)
func (t *jobTable) outputCell(info jobs.Info, width int) (string, styles.Seq) {
	switch {
	case info.Screen && info.CatchingUp:
		return sanitizeCut(screenCellCatchingUp, width), t.pal.muted
	case info.Screen && (info.AltScreen || termtext.Visible(info.LastLine, false) == ""):
		return sanitizeCut(screenCell, width), t.pal.muted
	}
	if info.LastLine != "" {
		return sanitizeCut(info.LastLine, width), styles.Seq{}
	}
	switch {
	case info.Error != "":
		return sanitizeCut(info.Error, width), t.pal.errText
	case info.Reason != "":
		return sanitizeCut(info.Reason, width), t.pal.muted
	}
	return "", styles.Seq{}
}

// What the OUTPUT column says of a job in screen mode.
const (
	screenCell           = "[screen]"
	screenCellCatchingUp = "[screen, catching up]"
)

// sanitizeCut is text made safe and cut to one row of width cells,
// ending in "…" when text is cut off (blanks cut off are not text).
func sanitizeCut(s string, width int) string {
	rows := layoutLine(nil, s, lineFormat{width: width, cutMark: true})
	return rows[0]
}
