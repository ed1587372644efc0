package cmd

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"golang.org/x/sys/unix"

	"jobtop/jobs/proc"
	"jobtop/ui"
)

// tuiSignals are the signals the TUI takes itself, not Bubble Tea:
// Bubble Tea v1 drops SIGINT and SIGTERM while a command it runs (the o
// key's pager) has the terminal, and has nothing for a SIGTSTP or
// SIGCONT from outside.
var tuiSignals = []os.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT, syscall.SIGTSTP, syscall.SIGCONT}

// pagerHolder is the TUI's model as far as its pager goes (ui.Model).
type pagerHolder interface {
	PagerOpen() bool
	EndPager()
	KillPager()
	StopPager() (stopped bool)
	ContinuePager()
	SetRetakeGate(func())
}

// noPager is the pagerHolder of a model without a pager.
type noPager struct{}

func (noPager) PagerOpen() bool      { return false }
func (noPager) EndPager()            {}
func (noPager) KillPager()           {}
func (noPager) StopPager() bool      { return false }
func (noPager) ContinuePager()       {}
func (noPager) SetRetakeGate(func()) {}

// signalRelay acts on the TUI's signals, and on lost and asked (see
// runProgram), until ended is closed:
//   - SIGHUP (the terminal closed) kills the pager if it is open, at
//     once (jobtop does not wait for one that ignores SIGHUP), and the
//     program;
//   - SIGTERM ends the pager if it is open and quits, as the q key's
//     "y" does (the caller stops every job);
//   - SIGINT does the same, but not while the pager is open: the
//     terminal's ^C reaches the pager and jobtop alike, and less takes
//     it to end a search;
//   - asked (jobtop shutdown) ends the pager too, then tells the TUI to
//     stop every job and quit (the TUI takes no message while the pager
//     runs);
//   - SIGTSTP hands the terminal back as it was (main screen, mouse off,
//     cursor shown, its own modes) and stops jobtop; with the pager open
//     jobtop stops the pager (as ^Z typed in less does: a SIGTSTP from
//     outside reaches jobtop alone), then itself, and a SIGCONT in the
//     terminal's foreground continues the pager too. Another SIGTSTP
//     before the SIGCONT that continues jobtop is the same stop (kill
//     -TSTP twice needs one fg);
//   - SIGCONT after any other stop (SIGSTOP) takes the terminal again and
//     draws the whole screen;
//   - but jobtop takes the terminal again (after a stop, or the pager)
//     only in the terminal's foreground process group: elsewhere it
//     would be stopped for it (SIGTTOU). Continued in the background
//     (kill -CONT, or kill %1, which sends SIGTERM, then SIGCONT), it
//     waits for fg, or, told to end meanwhile (SIGTERM, SIGHUP, jobtop
//     shutdown), ends without touching the terminal: see
//     stopState.awaitForeground.
func signalRelay(p *tea.Program, pager pagerHolder, st *stopState, sigs <-chan os.Signal, lost, asked, ended <-chan struct{}) {
	for {
		select {
		case s := <-sigs:
			switch s {
			case syscall.SIGHUP:
				st.end()
				pager.KillPager()
				p.Kill()
				return
			case syscall.SIGTERM:
				st.end()
				pager.EndPager()
				go p.Quit()
			case syscall.SIGINT:
				if !pager.PagerOpen() {
					go p.Send(tea.InterruptMsg{})
				}
			case syscall.SIGTSTP:
				if !st.pending.CompareAndSwap(false, true) { // the same stop: one fg continues it
					break
				}
				if pager.PagerOpen() && (!stoppable() || pager.StopPager()) {
					stopSelf(st)
					break
				}
				// No pager, or one that ended on the stop (less at its
				// "binary file?" prompt, one that exits on SIGTSTP): the
				// TUI has the terminal once the pager's run returns (the
				// message waits for that), and gives it back itself.
				go p.Send(stopTUIMsg{stop: st})
			case syscall.SIGCONT:
				st.pending.Store(false)
				select {
				case st.cont <- struct{}{}:
				default:
				}
				own, fg := st.own.Swap(false), inForeground()
				if pager.PagerOpen() {
					if fg {
						pager.ContinuePager()
					}
				} else if !own && !st.paused.Load() && fg {
					go p.Send(continuedTUIMsg{stop: st})
				}
			}
		case <-lost:
			p.Quit()
			return
		case <-asked:
			asked = nil
			st.end()
			pager.EndPager()
			go p.Send(ui.ShutdownMsg{})
		case <-ended:
			return
		}
	}
}

// stopState is what the relay and a terminalPause know of jobtop's stops.
type stopState struct {
	own     atomic.Bool // the coming SIGCONT ends a stop of jobtop's own
	pending atomic.Bool // a SIGTSTP was taken, and jobtop not continued since
	paused  atomic.Bool // a terminalPause of a stop has the terminal given back

	cont     chan struct{} // a SIGCONT came (capacity 1)
	ending   chan struct{} // closed: jobtop is to end (SIGTERM, SIGHUP, jobtop shutdown)
	endOnce  sync.Once
	detached chan struct{} // closed: the program was left to jobtop's end in the background
}

func newStopState() *stopState {
	return &stopState{cont: make(chan struct{}, 1), ending: make(chan struct{}), detached: make(chan struct{})}
}

// end says jobtop is to end.
func (st *stopState) end() { st.endOnce.Do(func() { close(st.ending) }) }

// foregroundPoll is how often jobtop, continued in the background, asks
// whether it is in the foreground: a shell's fg of a job it knows runs
// sends no SIGCONT.
const foregroundPoll = 100 * time.Millisecond

// awaitForeground returns once jobtop is in its terminal's foreground
// process group, where it may take the terminal again: continued in the
// background (kill -CONT, kill %1), it waits for fg (a SIGCONT, or
// foregroundPoll).
// When jobtop is to end meanwhile, it closes detached and never returns:
// runProgram returns, jobtop stops every job and exits, and Bubble Tea,
// whose event loop this blocks, never takes the terminal (the shell's
// now) again. It runs in the event loop (a terminalPause, or the pager's
// end), so one at a time.
func (st *stopState) awaitForeground() {
	if inForeground() {
		return
	}
	tick := time.NewTicker(foregroundPoll)
	defer tick.Stop()
	for !inForeground() {
		select {
		case <-st.cont:
		case <-tick.C:
		case <-st.ending:
			close(st.detached)
			select {} // the process ends without this goroutine
		}
	}
}

// stopSelf stops jobtop as SIGTSTP's default action would, st.own set
// for the SIGCONT that ends the stop; it returns once continued. As the
// kernel ignores a SIGTSTP to an orphaned process group (no shell there
// would continue it), it does nothing when jobtop's parent is in its
// process group or in another session (no stop pending then).
func stopSelf(st *stopState) {
	if !stoppable() {
		st.pending.Store(false)
		return
	}
	st.own.Store(true)
	stopThisThread()
}

// stoppable says whether a stop of jobtop's own would be continued:
// jobtop's parent is in its session, in another process group (see
// stopSelf).
func stoppable() bool {
	self, err := proc.Get(os.Getpid())
	if err != nil {
		return false
	}
	parent, err := proc.Get(os.Getppid())
	return err == nil && parent.PGID != self.PGID && parent.SID == self.SID
}

// inForeground says whether jobtop is in its terminal's foreground
// process group, where it may set the terminal's modes without being
// stopped (SIGTTOU). Without a terminal on its standard streams it is.
func inForeground() bool {
	for _, f := range []*os.File{os.Stdin, os.Stdout, os.Stderr} {
		if pgrp, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP); err == nil {
			return pgrp == syscall.Getpgrp()
		}
	}
	return true
}

// stopTUIMsg asks the program to give the terminal back and stop
// (SIGTSTP).
type stopTUIMsg struct{ stop *stopState }

// continuedTUIMsg says jobtop was continued after a stop not its own
// (SIGSTOP): the terminal is to be taken again and drawn whole.
type continuedTUIMsg struct{ stop *stopState }

// terminalBackMsg says the program has the terminal again.
type terminalBackMsg struct{}

// terminalPause is what Bubble Tea runs between letting go of the
// terminal and taking it again (tea.Exec): ReleaseTerminal leaves the
// alternate screen, turns the mouse off, shows the cursor and restores
// the terminal's modes; RestoreTerminal makes it raw again, goes back
// to the alternate screen and repaints.
type terminalPause struct {
	st   *stopState
	stop bool // jobtop stops itself; else the terminal is only taken again
}

// Run stops jobtop, if it is to, and returns once jobtop may take the
// terminal again (stopState.awaitForeground).
func (c terminalPause) Run() error {
	c.st.paused.Store(true)
	defer c.st.paused.Store(false)
	if c.stop {
		stopSelf(c.st)
	}
	c.st.awaitForeground()
	return nil
}

func (terminalPause) SetStdin(io.Reader)  {}
func (terminalPause) SetStdout(io.Writer) {}
func (terminalPause) SetStderr(io.Writer) {}

// terminalKeeper is the TUI's model behind the handling of stops: it
// turns stopTUIMsg and continuedTUIMsg into a terminalPause and, when
// the terminal is back, turns mouse reporting on again (RestoreTerminal
// does not).
type terminalKeeper struct{ tea.Model }

// Update handles the stop messages and passes the others on.
func (m *terminalKeeper) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	back := func(error) tea.Msg { return terminalBackMsg{} }
	switch msg := msg.(type) {
	case stopTUIMsg:
		return m, tea.Exec(terminalPause{st: msg.stop, stop: true}, back)
	case continuedTUIMsg:
		return m, tea.Exec(terminalPause{st: msg.stop}, back)
	case terminalBackMsg:
		return m, tea.EnableMouseCellMotion
	}
	var cmd tea.Cmd
	m.Model, cmd = m.Model.Update(msg)
	return m, cmd
}
