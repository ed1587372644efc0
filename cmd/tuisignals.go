package cmd

import (
	"os"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/ui"
)

// tuiSignals are the signals the TUI takes itself, not Bubble Tea:
// Bubble Tea v1 drops SIGINT and SIGTERM while a command it runs (the o
// key's pager) has the terminal.
var tuiSignals = []os.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT}

// pagerHolder is the TUI's model as far as its pager goes (ui.Model).
type pagerHolder interface {
	PagerOpen() bool
	EndPager()
}

// noPager is the pagerHolder of a model without a pager.
type noPager struct{}

func (noPager) PagerOpen() bool { return false }
func (noPager) EndPager()       {}

// signalRelay acts on the TUI's signals, and on lost and asked (see
// runProgram), until ended is closed:
//   - SIGHUP (the terminal closed) kills the program;
//   - SIGTERM ends the pager if it is open and quits, as the q key's
//     "y" does (the caller stops every job);
//   - SIGINT does the same, but not while the pager is open: the
//     terminal's ^C reaches the pager and jobtop alike, and less takes
//     it to end a search;
//   - asked (jobtop shutdown) ends the pager too, then tells the TUI to
//     stop every job and quit (the TUI takes no message while the pager
//     runs).
func signalRelay(p *tea.Program, pager pagerHolder, sigs <-chan os.Signal, lost, asked, ended <-chan struct{}) {
	for {
		select {
		case s := <-sigs:
			switch s {
			case syscall.SIGHUP:
				pager.EndPager()
				p.Kill()
				return
			case syscall.SIGTERM:
				pager.EndPager()
				go p.Quit()
			case syscall.SIGINT:
				if !pager.PagerOpen() {
					go p.Send(tea.InterruptMsg{})
				}
			}
		case <-lost:
			p.Quit()
			return
		case <-asked:
			asked = nil
			pager.EndPager()
			go p.Send(ui.ShutdownMsg{})
		case <-ended:
			return
		}
	}
}
