package ui

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"

	"jobtop/jobs/proc"
)

// pagerKillAfter is how long a pager ended by EndPager has to go with
// SIGTERM (less restores the terminal and goes at once) before the rest
// of its processes are killed.
const pagerKillAfter = 2 * time.Second

// pagerMark names the variable of the pager's environment that holds
// jobtop's PID: what the pager starts has it too, also once orphaned
// (KillPager).
const pagerMark = "JOBTOP_PAGER_OF"

// errTUIEnding is the pager's error when the TUI ended it, or it was to
// open after the TUI began to end.
var errTUIEnding = errors.New("jobtop is ending")

// pagerSlot holds the o key's pager while it has the terminal. Bubble Tea
// runs it in its event loop (tea.Exec), which takes no message until the
// pager ends: what must end the TUI meanwhile (SIGTERM, jobtop shutdown)
// ends the pager from outside through EndPager.
type pagerSlot struct {
	mu     sync.Mutex
	proc   *os.Process // nil unless a pager runs
	ending bool        // EndPager was called: no pager opens any more
	gate   func()      // called when the pager has ended (SetRetakeGate)
}

// pagerRun is a pager command as tea.Exec runs it, telling slot about
// its process.
type pagerRun struct {
	*exec.Cmd
	slot *pagerSlot
}

var _ tea.ExecCommand = pagerRun{}

// Run starts the pager, unless the TUI is ending, and waits for it. A
// pager may leave the terminal in its modes (killed by EndPager or by
// anyone, or not done restoring them): they are set back to what the
// pager found, which is what jobtop restores when it exits (Bubble Tea
// saves the modes it finds when it takes the terminal again, and would
// leave the pager's raw ones to the shell).
func (r pagerRun) Run() error {
	if f, ok := r.Stdin.(term.File); ok && term.IsTerminal(f.Fd()) {
		if st, err := term.GetState(f.Fd()); err == nil {
			defer term.Restore(f.Fd(), st) //nolint:errcheck // nothing better to do
		}
	}
	r.slot.mu.Lock()
	if r.slot.ending {
		r.slot.mu.Unlock()
		return errTUIEnding
	}
	if err := r.Start(); err != nil {
		r.slot.mu.Unlock()
		return err
	}
	r.slot.proc = r.Process
	r.slot.mu.Unlock()
	err := r.Wait()
	killMarked(syscall.SIGKILL) // what the pager left (its shell killed under it)
	r.slot.mu.Lock()
	r.slot.proc = nil
	ended, gate := r.slot.ending, r.slot.gate
	r.slot.mu.Unlock()
	if gate != nil {
		gate()
	}
	if ended {
		return errTUIEnding
	}
	return err
}

// SetStdin gives the pager the TUI's terminal (as tea.ExecProcess does).
func (r pagerRun) SetStdin(in io.Reader) {
	if r.Stdin == nil {
		r.Stdin = in
	}
}

// SetStdout gives the pager the TUI's terminal.
func (r pagerRun) SetStdout(out io.Writer) {
	if r.Stdout == nil {
		r.Stdout = out
	}
}

// SetStderr gives the pager the TUI's standard error.
func (r pagerRun) SetStderr(out io.Writer) {
	if r.Stderr == nil {
		r.Stderr = out
	}
}

// SetRetakeGate sets what is called when the pager has ended, before
// the terminal's modes are put back and the TUI takes it again: it
// returns when the TUI may, and need not return at all (jobtop ended
// in the background, where taking the terminal would stop it).
func (m *Model) SetRetakeGate(gate func()) {
	m.pager.mu.Lock()
	defer m.pager.mu.Unlock()
	m.pager.gate = gate
}

// PagerOpen reports whether the o key's pager holds the terminal now.
func (m *Model) PagerOpen() bool {
	m.pager.mu.Lock()
	defer m.pager.mu.Unlock()
	return m.pager.proc != nil
}

// EndPager ends the o key's pager if it is open, and keeps another from
// opening: the TUI is ending (SIGTERM, jobtop shutdown), and the pager
// would keep its event loop, and so every job, waiting until someone
// quit it. The pager and what it started get SIGTERM (less restores the
// terminal and exits), what is left of them SIGKILL after
// pagerKillAfter. Safe from any goroutine.
func (m *Model) EndPager() {
	m.pager.mu.Lock()
	m.pager.ending = true
	p := m.pager.proc
	m.pager.mu.Unlock()
	if p == nil {
		return
	}
	signalPager(p.Pid, syscall.SIGTERM)
	go func() {
		time.Sleep(pagerKillAfter)
		m.pager.mu.Lock()
		defer m.pager.mu.Unlock()
		if m.pager.proc == p { // still not reaped: still there
			signalPager(p.Pid, syscall.SIGKILL)
		}
	}()
}

// StopPager stops the o key's pager if it is open, as ^Z typed in it
// would (the terminal sends SIGTSTP to jobtop and the pager alike; a
// SIGTSTP from outside reaches jobtop alone): SIGTSTP to what runs under
// its shell, and it returns once they have stopped or gone (less puts
// the terminal back first), or after pagerKillAfter. jobtop stops
// itself next, and the shell that continues it prompts on a terminal
// the pager gave back. stopped says a process of it is stopped: false
// when none is left (a pager that exits on SIGTSTP, less at a prompt),
// and then the TUI, which has the terminal back once the pager's run
// returns, must give it back itself. Safe from any goroutine.
func (m *Model) StopPager() (stopped bool) {
	pid := m.pagerPID()
	if pid == 0 {
		return false
	}
	pids := signalPager(pid, syscall.SIGTSTP)
	end := time.Now().Add(pagerKillAfter)
	for time.Now().Before(end) && !allStopped(pids) {
		time.Sleep(10 * time.Millisecond)
	}
	for _, pid := range pids {
		if p, err := proc.Get(pid); err == nil && p.Stopped {
			return true
		}
	}
	return false
}

// ContinuePager continues the o key's pager after StopPager (a SIGCONT
// to jobtop alone, kill -CONT, would leave it stopped). Safe from any
// goroutine.
func (m *Model) ContinuePager() {
	if pid := m.pagerPID(); pid != 0 {
		signalPager(pid, syscall.SIGCONT)
	}
}

// pagerPID is the PID of the pager's shell, or 0 when no pager runs.
func (m *Model) pagerPID() int {
	m.pager.mu.Lock()
	defer m.pager.mu.Unlock()
	if m.pager.proc == nil {
		return 0
	}
	return m.pager.proc.Pid
}

// allStopped says whether every one of pids is stopped or gone.
func allStopped(pids []int) bool {
	for _, pid := range pids {
		if p, err := proc.Get(pid); err == nil && !p.Stopped && !p.Zombie {
			return false
		}
	}
	return true
}

// KillPager kills the o key's pager and everything it started at once,
// and keeps another from opening: the terminal is gone (SIGHUP), and a
// pager that ignores SIGHUP and SIGTERM would outlive jobtop, which does
// not wait pagerKillAfter. What the pager started is found by its mark
// (pagerMark) too: the shell that runs $PAGER may have died of the
// hangup already, its children no longer below it. Safe from any
// goroutine.
func (m *Model) KillPager() {
	m.pager.mu.Lock()
	m.pager.ending = true
	p := m.pager.proc
	m.pager.mu.Unlock()
	if p != nil {
		signalPager(p.Pid, syscall.SIGKILL)
	}
	killMarked(syscall.SIGKILL)
}

// killMarked sends sig to every process with this jobtop's pager mark:
// what a pager started, also once orphaned. A pager's run ends with it
// (rev52: a pager script killed with -9 left its sleep running after
// jobtop exited).
func killMarked(sig syscall.Signal) {
	pids, err := proc.PIDs()
	if err != nil {
		return
	}
	self := strconv.Itoa(os.Getpid())
	for _, pid := range pids {
		if v, ok := proc.Env(pid, pagerMark); ok && v == self && pid != os.Getpid() {
			syscall.Kill(pid, sig) //nolint:errcheck // it may have gone meanwhile
		}
	}
}

// signalPager signals, and returns, the processes below the pager's (the shell that
// runs $PAGER: the pager, and cat for a rotated log), or the pager's own
// when it has none, or every one of them for SIGKILL. The shell is left
// to end when the pager has: Bubble Tea takes the terminal again when
// the shell ends, and less restores the terminal's modes on its way out.
func signalPager(pid int, sig syscall.Signal) []int {
	procs, ok, err := proc.Tree(pid)
	if !ok {
		all, lerr := proc.List()
		procs, err = nil, lerr
		for _, i := range proc.Descendants(all, proc.Children(all), pid) {
			procs = append(procs, all[i])
		}
	}
	var pids []int
	if err == nil {
		for _, p := range procs {
			if p.PID != pid {
				pids = append(pids, p.PID)
			}
		}
	}
	if len(pids) == 0 || sig == syscall.SIGKILL {
		pids = append(pids, pid)
	}
	for _, p := range pids {
		syscall.Kill(p, sig) //nolint:errcheck // it may have gone meanwhile
	}
	return pids
}
