package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
	"jobtop/ui"
)

// attachHosts runs the TUI over the instances of hosts (and, with
// --local, this machine's), one table for all, after starting specs on
// the first host (the first of them is selected). A host that drops is
// shown disconnected and reconnected; with several, the TUI ends only
// when quit, with one, also when its instance there ends.
func attachHosts(cmd *cobra.Command, specs []jobs.Spec, hosts []control.Host) error {
	var names []string
	var clients []*control.Client
	for _, h := range hosts {
		h.Interactive = true // ssh may ask for a passphrase before the TUI starts
		names = append(names, h.Name())
		clients = append(clients, control.NewHostClient(h))
	}
	if local, _ := cmd.Flags().GetBool(localFlag); local {
		names = append(names, control.LocalHostName)
		clients = append(clients, localClient(cmd))
	}
	if len(clients) == 1 {
		// One host: its instance is the TUI's only one. A reconnection
		// goes back to it, and starts none there once it is gone: the
		// TUI ends then, as a plain attach does (below).
		clients[0].SetReconnectSame(true)
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), attachTimeout)
	defer cancel()
	engine, err := control.AttachHosts(ctx, names, clients)
	if err != nil {
		return err
	}
	defer engine.Close()
	memCtx, stopMemory := context.WithCancel(context.Background())
	defer stopMemory()
	governMemory(memCtx, engine, time.Second)
	cfg := withTerminal(cmd, ui.Config{Attached: true, Instance: "on " + strings.Join(names, ", ")})
	if len(clients) == 1 {
		// One host: R reloads its job file, as in a plain attach.
		inst, err := clients[0].Instance(ctx)
		if err != nil {
			return err
		}
		cfg.Instance = fmt.Sprintf("%s (pid %d) on %s", inst.Kind, inst.PID, names[0])
		cfg.JobFile, cfg.JobFiles = inst.JobFile, inst.JobFiles
	}
	cfg.Began = time.Now() // the ends of the command line's jobs are news, not older ones
	for i, s := range specs {
		info, err := engine.Start(s)
		if err != nil {
			return &ExitError{Code: usageExit, Err: fmt.Errorf("job %q on %s: %w", s.DisplayName(), names[0], err)}
		}
		if i == 0 {
			cfg.Select = info.ID
		}
	}
	model := ui.New(hostsEngine{engine}, cfg)
	defer model.Close()
	if len(clients) > 1 {
		return runProgram(model, nil, nil)
	}
	// One host: its instance is the TUI's only one, so the TUI ends with
	// it as a plain attach does (a broken link is reconnected to it, so
	// only its shutdown or its loss ends it), instead of showing nothing
	// but "shut down" or a new instance's jobs until quit.
	if err := runProgram(model, clients[0].Done(), nil); err != nil {
		return err
	}
	return attachEnd(cmd, clients[0].Err())
}

// hostsEngine is a control.Hosts as the TUI's engine: it also says how
// each host's connection is (ui.HostsEngine).
type hostsEngine struct{ *control.Hosts }

// With one host, the status bar shows its limit on jobs running at once.
var _ ui.RunLimiter = hostsEngine{}

// HostStatus reports each host's connection.
func (e hostsEngine) HostStatus() []ui.HostStatus {
	st := e.Status()
	out := make([]ui.HostStatus, len(st))
	for i, s := range st {
		out[i] = ui.HostStatus{Name: s.Name, Connected: s.Connected, RetryAt: s.RetryAt, Replaced: s.Replaced,
			ShutDown: errors.As(s.Err, new(*control.ShutDownError)), MaxRunning: s.MaxRunning}
		if !s.Connected {
			out[i].Why = control.Unreachable(s.Err)
		}
		if s.Instance.PID != 0 {
			out[i].Instance = fmt.Sprintf("%s (pid %d)", s.Instance.Kind, s.Instance.PID)
		}
	}
	return out
}
