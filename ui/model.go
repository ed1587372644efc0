package ui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
	"jobtop/keymap"
	"jobtop/styles"
)

// focusArea is the part of the screen that gets the keys.
type focusArea uint8

const (
	focusTable  focusArea = iota
	focusOutput           // the active pane
)

// viewMode is what the output area shows.
type viewMode uint8

const (
	viewSingle viewMode = iota // the selected job's output
	viewSplit                  // up to four jobs' outputs side by side
	viewAll                    // every job's lines in arrival order
)

// Model is the root of the TUI. It owns focus and layout, matches global
// keys first and passes other keys to the focused child, turns job events
// into state and runs actions on jobs as commands.
type Model struct {
	engine Engine
	cfg    Config
	km     keymap.KeyMap
	st     styles.Styles
	pal    *palette
	now    func() time.Time
	stream jobs.EventStream

	table  *jobTable
	single *outputPane // follows the table's selection
	// ownRemovals are the jobs this TUI asked to remove, until their
	// removal arrives (noteRemoved says only other clients').
	ownRemovals map[jobs.ID]bool
	split       []*outputPane // the split view's panes, one job each
	all         *outputPane   // the "all" view, made when first shown
	allSrc      *allSource
	names       *jobNames
	mode        viewMode
	back        viewMode // the view the "all" view returns to
	active      int      // the pane that has, or last had, the focus

	prompt *addPrompt // nil when closed
	// started is the commands started from the add prompt in this
	// session, oldest first (its ↑/↓ history).
	started []string
	find    *searchPrompt // nil when closed
	panel   *panel        // covers the screen when open: help, reload problems
	confirm *bulkConfirm  // nil unless asking before acting on marked jobs
	summary heldSummary   // the notice of the last action on marked jobs, kept a while
	// timeline shows in place of the output when not nil (T).
	timeline *timeline
	quiet    *quietWatch
	help     help.Model
	helpBar  helpBar
	// statusBar is the status bar as last drawn (statusbar.go).
	statusBar statusBar

	focus      focusArea
	zoom       bool
	zoomedFrom focusArea // where the focus was when z zoomed: z goes back there
	// zoomSplit and zoomActive are the split's panes and focused pane
	// before z zoomed from the table: ending that zoom brings them back.
	zoomSplit    []*outputPane
	zoomActive   int
	bell         bool
	quit         quitState
	quitting     bool // tea.Quit was returned
	notice       notice
	streamClosed bool
	starting     int  // jobs started from the add prompt, not yet reported
	reloading    bool // a reload of the job file is under way
	ticking      bool
	searchGen    uint64
	width        int
	height       int
	screen       screenLayout
	// tty sends input and terminal sizes to TTY jobs; input is input
	// mode; sizes are the terminal sizes last sent, per job.
	tty   ttyWriter
	input inputMode
	sizes map[jobs.ID]termSize
	// lent are the jobs an attached TUI resized, to give back their
	// sizes when it ends (termsize.go).
	lent map[jobs.ID]*lentSize
	// screenPolling says a look for new frames of the screens on screen
	// is due (screenmode.go).
	screenPolling bool
	// ownStarting says the engine is still starting jobs of its own
	// (OwnStarter, arrivals.go).
	ownStarting bool
	// arrivals are the jobs the standing "started from outside" notice
	// counts (arrivals.go).
	arrivals arrivals

	// replacedSeen is, per host, how many replacements of its instance
	// were told (HostStatus.Replaced).
	replacedSeen map[string]int

	// pager is the o key's pager while it holds the terminal (pager.go).
	pager *pagerSlot

	// began is when this TUI began (Config.Began): a job first seen
	// already ended is news when it ended since (noteFirstSeen).
	began time.Time
	// listedAlerts are the bells and notifications for the jobs New
	// found ended since began: Init sends them.
	listedAlerts tea.Cmd
}

// notice is the status bar's last message.
type notice struct {
	text  string
	isErr bool
	// endOf is the job whose end the notice tells (0: none): its next
	// run takes the notice down.
	endOf jobs.ID
	// replacedHost is the host whose instance was replaced, when the
	// notice says so: its old jobs' removals do not cover it.
	replacedHost string
	// restartOf is the job the notice says is restarting (0: none): its
	// new run says it restarted.
	restartOf jobs.ID
	// transient says it goes at the next key or noticeLife after at
	// (flash); timed, that its timer runs (notices.go).
	transient, timed bool
	at               time.Time
	// split says it tells which jobs the split shows: it goes with
	// that split.
	split bool
	// refusedKey is the key a refusal (refuse) says does nothing here:
	// that key working later takes it down (dropWorkedRefusal).
	refusedKey string
}

// New builds the root model over an engine. It subscribes to the engine's
// events at once, so nothing that happens before the program starts is
// missed; call Close when the program has ended.
func New(engine Engine, cfg Config) *Model {
	m := &Model{engine: engine, cfg: cfg, now: cfg.Now, bell: cfg.Bell, notice: notice{text: cfg.Notice}, pager: new(pagerSlot)}
	if m.now == nil {
		m.now = time.Now
	}
	m.km = keymap.DefaultKeyMap()
	if cfg.Keys != nil {
		m.km = *cfg.Keys
	}
	m.st = styles.Default()
	if cfg.Styles != nil {
		m.st = *cfg.Styles
	}
	m.pal = newPalette(&m.st)
	m.help = help.New()
	m.help.Styles.ShortKey = m.st.HelpKey
	m.help.Styles.ShortDesc = m.st.HelpDesc
	m.help.Styles.ShortSeparator = m.st.HelpSep
	m.help.Styles.FullKey = m.st.HelpKey
	m.help.Styles.FullDesc = m.st.HelpDesc
	m.help.Styles.FullSeparator = m.st.HelpSep
	m.help.Styles.Ellipsis = m.st.HelpSep

	m.table = newJobTable(&m.km, m.pal)
	m.table.activity = newActivity()
	m.quiet = newQuietWatch()
	m.table.quiet = m.quiet
	m.single = newOutputPane(&m.km, m.pal)
	m.names = newJobNames(m.pal)
	m.tty.engine = m.terminal()
	m.sizes = make(map[jobs.ID]termSize)
	m.stream = engine.Subscribe()
	if s, ok := engine.(OwnStarter); ok {
		_, _, done := s.OwnStarts()
		m.ownStarting = !done
	}
	m.began = cfg.Began
	if m.began.IsZero() {
		m.began = m.now()
	}
	m.table.SetNow(m.now())
	listed := engine.List()
	for _, info := range listed {
		m.table.Upsert(info)
		m.table.activity.sample(&info, m.now())
		m.names.set(info)
	}
	if cfg.Select != 0 {
		m.table.Select(cfg.Select)
	}
	m.syncPanes()
	var alerts []tea.Cmd
	for i := range listed {
		alerts = append(alerts, m.noteFirstSeen(listed[i]))
	}
	m.listedAlerts = tea.Batch(alerts...)
	m.updateKeys()
	return m
}

// Close ends the model's event subscription. It is safe to call more than
// once.
func (m *Model) Close() {
	m.stream.Close()
	m.tty.close()
	m.restoreTermSizes()
}

// Init starts listening for job events and the run-time clock, and
// rings for the jobs New found failed since the TUI began.
func (m *Model) Init() tea.Cmd {
	alerts := m.listedAlerts
	m.listedAlerts = nil
	return tea.Batch(waitForEvents(m.stream), m.ensureTick(), m.watchLimit(), alerts)
}

// limitChangedMsg says the engine's limit on jobs running at once changed
// (by jobtop parallel, or a reload from another terminal): the status bar
// shows the new one, even with nothing else happening.
type limitChangedMsg struct{}

// watchLimit waits for the engine's limit on jobs running at once to
// change; nil for an engine without one.
func (m *Model) watchLimit() tea.Cmd {
	l, ok := m.engine.(RunLimiter)
	if !ok {
		return nil
	}
	changed := l.MaxRunningChanged()
	if changed == nil { // it has none to tell (several hosts)
		return nil
	}
	return func() tea.Msg {
		<-changed
		return limitChangedMsg{}
	}
}

// Update dispatches a message to its handler.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyMsg:
		m.holdOutput()
		m.dropFlash()
		m.table.SetNow(m.now()) // the time the person looks, not the last tick's
		before, acts := m.notice, m.keysAct()
		cmd = m.handleKey(msg)
		if acts {
			m.dropWorkedRefusal(before, msg.String())
		}
	case tea.MouseMsg:
		m.holdOutput()
		m.table.SetNow(m.now())
		cmd = m.handleMouse(msg)
	case tea.UnknownCSISequenceMsg:
		cmd = m.handleUnknownSequence(msg)
	case ttyInputErrMsg:
		m.setNotice(msg.err.Error(), true)
	case screenPollMsg:
		m.handleScreenPoll()
	case jobEventsMsg:
		cmd = m.handleJobEvents(msg.events)
	case eventsClosedMsg:
		m.streamClosed = true
		m.setNotice("the job engine stopped sending events", true)
	case scanDoneMsg:
		cmd = m.handleScanDone(msg)
	case logScanMsg:
		cmd = m.handleLogScan(msg)
	case actionDoneMsg:
		cmd = m.handleActionDone(msg)
	case bulkDoneMsg:
		cmd = m.handleBulkDone(msg)
	case ShutdownMsg:
		cmd = m.handleShutdown()
	case reloadDoneMsg:
		cmd = m.handleReloadDone(msg)
	case allPagerReadyMsg:
		cmd = m.handleAllPagerReady(msg)
	case pagerDoneMsg:
		cmd = m.handlePagerDone(msg)
	case tickMsg:
		cmd = m.handleTick()
	case noticeExpiryMsg:
		m.handleNoticeExpiry()
	case limitChangedMsg:
		cmd = m.watchLimit()
	case addSubmittedMsg:
		m.prompt = nil
		if n := len(m.started); n == 0 || m.started[n-1] != msg.spec.Command {
			m.started = append(m.started, msg.spec.Command)
		}
		if msg.replaces != 0 {
			cmd = m.replaceQueued(msg.replaces, msg.spec)
		} else {
			cmd = m.startJob(msg.spec)
		}
	case addCancelledMsg:
		m.prompt = nil
	default:
		if m.prompt != nil {
			_, cmd = m.prompt.Update(msg)
		}
	}
	m.syncPanes()
	m.syncScreens()
	m.syncInput(byPerson(msg))
	m.activePane().followSearch()
	m.settleLayout()
	m.syncTermSizes()
	m.markSeen()
	if poll := m.pollScreens(); poll != nil {
		cmd = tea.Batch(cmd, poll)
	}
	if timer := m.timeFlash(); timer != nil {
		cmd = tea.Batch(cmd, timer)
	}
	if tick := m.ensureTick(); tick != nil { // an ended job's pane came on screen
		cmd = tea.Batch(cmd, tick)
	}
	return m, cmd
}

// settleLayout enables the keys that work now and lays the screen out.
// The help bar's height depends on the keys, and the keys that pick a
// pane (1–4) on the panes the layout draws: when a message changed how
// many are drawn (s, A, a resize), the keys are enabled again for them,
// so a key pressed right after (s then 2) finds them.
func (m *Model) settleLayout() {
	drawn := len(m.drawn())
	m.updateKeys()
	m.resize()
	if len(m.drawn()) != drawn {
		m.updateKeys()
		m.resize()
	}
}

// byPerson reports whether a message is the person's own: a key or the
// mouse.
func byPerson(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return true
	case tea.MouseMsg: // a click; a wheel turned over the table is no leaving
		return msg.Button == tea.MouseButtonLeft && msg.Action == tea.MouseActionPress
	}
	return false
}

// holdOutput asks the engine to hold its jobs' output back while the
// frame answering a person is drawn, unless the key goes to a job (the
// engine holds the others when it takes the input).
func (m *Model) holdOutput() {
	if h, ok := m.engine.(OutputHolder); ok && !m.input.on() {
		h.HoldOutput()
	}
}

// View draws the whole screen: exactly the terminal's height in lines,
// none wider than it.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	f := m.screen.frame
	if m.panel != nil {
		return m.panelScreen()
	}
	parts := make([]string, 0, 5)
	if f.table > 0 {
		parts = append(parts, m.table.View())
	}
	switch {
	case f.pane > 0 && m.timeline != nil:
		parts = append(parts, m.timeline.View(m.table, m.now()))
	case f.pane > 0:
		parts = append(parts, m.outputView())
	}
	switch {
	case f.prompt > 0 && m.prompt != nil:
		parts = append(parts, firstLines(m.prompt.View(), f.prompt))
	case f.prompt > 0 && m.find != nil:
		parts = append(parts, m.find.View())
	}
	parts = append(parts, m.statusView())
	if f.help > 0 {
		parts = append(parts, firstLines(m.helpView(), f.help))
	}
	return strings.Join(parts, "\n")
}

// firstLines keeps the first n lines of s.
func firstLines(s string, n int) string {
	i := 0
	for pos := 0; pos < len(s); pos++ {
		if s[pos] == '\n' {
			i++
			if i == n {
				return s[:pos]
			}
		}
	}
	return s
}

func (m *Model) setNotice(text string, isErr bool) {
	m.notice = notice{text: text, isErr: isErr}
}
