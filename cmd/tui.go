package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
	"jobtop/ui"
)

// shutdownTimeout bounds the final stop of every job after the TUI ends;
// past it the rest are killed.
const shutdownTimeout = 15 * time.Second

// tuiOptions tune runTUI.
type tuiOptions struct {
	// dir is the working directory of jobs that name none.
	dir string
	// bell rings the terminal bell when a job fails.
	bell bool
}

// runTUI starts the jobs on a new manager, runs the TUI over it and, when
// the TUI ends, shuts the manager down so that no job outlives jobtop.
func runTUI(specs []jobs.Spec, opts tuiOptions) (err error) {
	mgr, err := jobs.NewManager(jobs.Options{})
	if err != nil {
		return err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if serr := mgr.Shutdown(ctx); serr != nil && err == nil {
			err = fmt.Errorf("stopping jobs: %w", serr)
		}
	}()
	for _, s := range specs {
		if s.Dir == "" {
			s.Dir = opts.dir
		}
		if _, err := mgr.Start(s); err != nil {
			return &ExitError{Code: 2, Err: fmt.Errorf("job %q: %w", s.DisplayName(), err)}
		}
	}

	model := ui.New(mgr, ui.Config{Bell: opts.bell, Terminal: os.Stdout})
	defer model.Close()
	p := tea.NewProgram(model, tea.WithAltScreen(), tea.WithFPS(120), tea.WithMouseCellMotion())

	// A closed terminal (SIGHUP) ends the program; the deferred shutdown
	// then stops the jobs.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer func() {
		signal.Stop(hup)
		close(hup)
	}()
	go func() {
		if _, ok := <-hup; ok {
			p.Kill()
		}
	}()

	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return err
	}
	return nil
}
