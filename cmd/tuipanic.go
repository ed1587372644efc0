package cmd

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
)

// panicWatch is the TUI's model behind a recorder of its first panic.
// Bubble Tea recovers a panic, restores the terminal and ends Run with
// ErrProgramPanic (wrapped in ErrProgramKilled, which jobtop also gets
// from a SIGHUP); it prints the panic to stdout and loses it. panicWatch
// keeps the value and the stack of a panic in Init, Update or View, then
// panics on, so that runProgram can end jobtop with an error that says
// where (a panic in a command's goroutine is known only by Bubble Tea's
// own print).
type panicWatch struct {
	tea.Model
	mu    sync.Mutex
	value any
	stack []byte
}

func (w *panicWatch) record() {
	r := recover()
	if r == nil {
		return
	}
	w.mu.Lock()
	if w.stack == nil {
		w.value, w.stack = r, debug.Stack()
	}
	w.mu.Unlock()
	panic(r)
}

func (w *panicWatch) Init() tea.Cmd {
	defer w.record()
	return w.Model.Init()
}

func (w *panicWatch) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer w.record()
	next, cmd := w.Model.Update(msg)
	if next != w.Model {
		w.Model = next
	}
	return w, cmd
}

func (w *panicWatch) View() string {
	defer w.record()
	return w.Model.View()
}

// programError is the error jobtop ends with after Run returned err: none
// when the TUI quit or the terminal went away (ErrProgramKilled), an
// error that exits 1 and says where when the TUI panicked, so a script
// that ran jobtop does not read success.
func (w *panicWatch) programError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrProgramPanic):
		w.mu.Lock()
		defer w.mu.Unlock()
		where := "its stack is printed above"
		if w.stack != nil {
			where = fmt.Sprintf("%v\n%s", w.value, strings.TrimRight(string(w.stack), "\n"))
		}
		return &ExitError{Code: 1, Err: fmt.Errorf("the TUI stopped on a panic, a bug in jobtop (please report it): %s", where)}
	case errors.Is(err, tea.ErrProgramKilled):
		return nil
	}
	return err
}
