package ui

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// defaultPager reads a log file when $PAGER is not set; -R shows the
// job's colours.
const defaultPager = "less -R"

// pagerDoneMsg says the pager has ended and the TUI is back.
type pagerDoneMsg struct{ err error }

// pagerCommand runs pager (a command line, as $PAGER is written; empty
// means defaultPager) on a log's files, through the shell: one file is
// its argument; the files of a rotated log (oldest first) are piped into
// it as one text.
func pagerCommand(pager string, files ...string) *exec.Cmd {
	if strings.TrimSpace(pager) == "" {
		pager = defaultPager
	}
	if len(files) == 1 {
		return exec.Command("/bin/sh", "-c", pager+` "$1"`, "jobtop-pager", files[0])
	}
	return exec.Command("/bin/sh", append([]string{"-c", `cat -- "$@" | ` + pager, "jobtop-pager"}, files...)...)
}

// openPager opens a job's log in $PAGER (both files when it rotated): the program lets go
// of the terminal until the pager ends (tea.Exec), then draws again as
// it was. EndPager ends it from outside.
func (m *Model) openPager(info jobs.Info) tea.Cmd {
	if info.LogPath == "" {
		m.setNotice("job "+shownID(info).String()+" has no log file", true)
		return nil
	}
	if remoteLog(info) {
		m.setNotice(jobLabel(info)+": its log file is on "+label(info.Host)+" ("+label(info.LogPath)+"); jobtop logs --host shows it", true)
		return nil
	}
	files := info.LogFiles
	if len(files) == 0 {
		files = []string{info.LogPath}
	}
	return m.runPager(pagerCommand(os.Getenv("PAGER"), files...), nil)
}

// runPager hands the terminal to a pager command until it ends, then
// calls done (when not nil) and draws again as it was.
func (m *Model) runPager(c *exec.Cmd, done func()) tea.Cmd {
	c.Env = append(os.Environ(), pagerMark+"="+strconv.Itoa(os.Getpid()))
	return tea.Exec(pagerRun{Cmd: c, slot: m.pager}, func(err error) tea.Msg {
		if done != nil {
			done()
		}
		return pagerDoneMsg{err: err}
	})
}

// handlePagerDone turns mouse reporting on again: Bubble Tea's return
// from ExecProcess brings back the alternate screen and bracketed paste,
// not the mouse (clicks and the wheel stayed dead for the rest of the
// session).
func (m *Model) handlePagerDone(msg pagerDoneMsg) tea.Cmd {
	if msg.err != nil && !errors.Is(msg.err, errTUIEnding) {
		m.setNotice("pager: "+msg.err.Error(), true)
	}
	return tea.EnableMouseCellMotion
}
