package cmd

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
)

// This file holds --host: reaching the instance on another machine over
// ssh, for every client command, attach and mcp.

// Flags and the variable of remote use.
const (
	hostFlag         = "host"
	hostEnv          = "JOBTOP_HOST"
	remoteBinFlag    = "remote-bin"
	remoteSocketFlag = "remote-socket"
	hostTimeoutFlag  = "host-timeout"
	localFlag        = "local"
	// answerTimeoutFlag bounds the wait on this machine's instance, as
	// --host-timeout does on a far one (and as dial-stdio's flag of the
	// same name does there).
	answerTimeoutFlag = "answer-timeout"
)

// localCommands run here and nowhere else: --host makes no sense for
// them, and $JOBTOP_HOST is not theirs to follow (dial-stdio runs on the
// far side, where it may be set too).
var localCommands = map[string]bool{"serve": true, "check": true, "demo": true, "completion": true, "dial-stdio": true, "version": true}

// multiHostCommands show several hosts at once.
var multiHostCommands = map[string]bool{"attach": true, "jobtop": true}

// addHostFlags adds --host, --remote-bin and --remote-socket to root, for
// every command.
func addHostFlags(root *cobra.Command) {
	f := root.PersistentFlags()
	f.StringArray(hostFlag, nil, "talk to the instance on another machine, over `ssh://[user@]host[:port]` (default $"+hostEnv+"); attach takes several")
	f.String(remoteBinFlag, "", "where jobtop is on the --host machine: its `PATH` there (default: jobtop, found on the far PATH)")
	f.String(remoteSocketFlag, "", "the instance's socket on the --host machine, as a `PATH` there (default: the one jobtop finds there)")
	timeout := control.DefaultAnswerTimeout
	f.Var(durationFlag{d: &timeout, nonNegative: true}, hostTimeoutFlag, "with --host: give up when the far jobtop has not answered within `DUR` of running ssh (0: wait as long as it takes)")
	answer := control.DefaultAnswerTimeout
	f.Var(durationFlag{d: &answer, nonNegative: true}, answerTimeoutFlag, "give up when the instance on the socket has not answered within `DUR` (stopped with SIGSTOP, or hung; 0: wait as long as it takes)")
}

// localClient makes the client of the instance on this machine's socket,
// bounded by --answer-timeout.
func localClient(cmd *cobra.Command) *control.Client {
	return answeringClient(cmd, socketPath(cmd))
}

// answeringClient makes the client of the instance on socket, bounded
// by --answer-timeout.
func answeringClient(cmd *cobra.Command, socket string) *control.Client {
	c := control.NewClient(socket)
	c.SetAnswerTimeout(answerTimeout(cmd))
	w := cmd.ErrOrStderr()
	c.SetLoadingNote(func(inst control.Instance) {
		fmt.Fprintf(w, "jobtop: waiting for the instance on %s (pid %d) to load %s\n", socket, inst.PID, inst.Loading)
	})
	return c
}

// answerTimeout is --answer-timeout.
func answerTimeout(cmd *cobra.Command) time.Duration {
	if f := cmd.Flags().Lookup(answerTimeoutFlag); f != nil {
		if v, ok := f.Value.(durationFlag); ok {
			return *v.d
		}
	}
	return control.DefaultAnswerTimeout
}

// addLocalFlag adds --local, for the commands that show several hosts.
func addLocalFlag(c *cobra.Command) {
	c.Flags().Bool(localFlag, false, "with --host: show this machine's instance (on the socket) too, as host \"local\"")
}

// isLocalCommand reports whether cmd, or a command it is part of, runs
// only here.
func isLocalCommand(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		if localCommands[c.Name()] {
			return true
		}
	}
	return false
}

// hostsOf reads the hosts a command reaches: every --host, else
// $JOBTOP_HOST; none for a command that runs only here.
func hostsOf(cmd *cobra.Command) ([]control.Host, error) {
	if isLocalCommand(cmd) {
		return nil, nil
	}
	values, _ := cmd.Flags().GetStringArray(hostFlag)
	if !cmd.Flags().Changed(hostFlag) {
		if env := os.Getenv(hostEnv); env != "" {
			values = []string{env}
		}
	}
	bin, _ := cmd.Flags().GetString(remoteBinFlag)
	socket, _ := cmd.Flags().GetString(remoteSocketFlag)
	var hosts []control.Host
	for _, v := range values {
		h, err := control.ParseHost(v)
		if err != nil {
			if !cmd.Flags().Changed(hostFlag) {
				return nil, fmt.Errorf("$%s=%w", hostEnv, err)
			}
			return nil, fmt.Errorf("--%s %w", hostFlag, err)
		}
		h.Bin, h.Socket, h.AnswerTimeout = bin, socket, hostTimeout(cmd)
		hosts = append(hosts, h)
	}
	return hosts, nil
}

// hostTimeout is --host-timeout.
func hostTimeout(cmd *cobra.Command) time.Duration {
	if f := cmd.Flags().Lookup(hostTimeoutFlag); f != nil {
		if d, ok := f.Value.(durationFlag); ok {
			return *d.d
		}
	}
	return control.DefaultAnswerTimeout
}

// checkHostFlags refuses, before a command runs, what --host cannot mean
// for it.
func checkHostFlags(cmd *cobra.Command, _ []string) error {
	changed := func(name string) bool { f := cmd.Flags().Lookup(name); return f != nil && f.Changed }
	if isLocalCommand(cmd) {
		for _, name := range []string{hostFlag, remoteBinFlag, remoteSocketFlag, hostTimeoutFlag, answerTimeoutFlag} {
			if name == answerTimeoutFlag && (cmd.LocalNonPersistentFlags().Lookup(name) != nil || cmd.Name() == "serve") {
				continue // dial-stdio's own; serve's look at an instance already on its socket
			}
			switch {
			case !changed(name):
			case name == answerTimeoutFlag: // not about other machines
				return &ExitError{Code: usageExit, Err: fmt.Errorf("--%s is for the commands that talk to an instance (it bounds the wait for the instance's first answer); jobtop %s talks to none", name, cmd.Name())}
			default:
				return &ExitError{Code: usageExit, Err: fmt.Errorf("--%s is for the commands that talk to an instance; jobtop %s runs here (run it on the other machine: ssh HOST jobtop %s)", name, cmd.Name(), cmd.Name())}
			}
		}
		return nil
	}
	hosts, err := hostsOf(cmd)
	if err != nil {
		return &ExitError{Code: usageExit, Err: err}
	}
	switch {
	case len(hosts) > 1 && !multiHostCommands[cmd.Name()]:
		return &ExitError{Code: usageExit, Err: fmt.Errorf("--host is given %d times; only jobtop attach shows several hosts at once", len(hosts))}
	case len(hosts) == 0 && (changed(remoteBinFlag) || changed(remoteSocketFlag) || changed(hostTimeoutFlag)):
		return &ExitError{Code: usageExit, Err: errors.New("--remote-bin, --remote-socket and --host-timeout are about the --host machine; give --host ssh://HOST too")}
	case len(hosts) > 0 && changed(answerTimeoutFlag) && !changed(localFlag):
		return &ExitError{Code: usageExit, Err: errors.New("--answer-timeout bounds the wait on this machine's instance; with --host, --host-timeout bounds the far one (or add --local to attach to show this machine's instance too)")}
	case len(hosts) > 0 && changed(socketFlag) && !changed(localFlag):
		return &ExitError{Code: usageExit, Err: errors.New("--socket names a socket on this machine; with --host, name the far one with --remote-socket (or add --local to attach to show this machine's instance too)")}
	}
	return nil
}

// newClient makes the client of the instance a command talks to: on the
// --host machine over ssh, or on this machine's socket. On a --host
// machine without an instance none is started (the client gets a
// NotRunningError), as on this one: the commands that read or act on
// existing jobs would find an empty new instance, and say nothing of it.
func newClient(cmd *cobra.Command) *control.Client {
	hosts, _ := hostsOf(cmd) // checked by checkHostFlags
	if len(hosts) > 0 {
		hosts[0].NoStart = true
		return control.NewHostClient(hosts[0])
	}
	return localClient(cmd)
}

// newStartingClient is newClient for the commands that start an instance
// when none runs (run, mcp; the TUI has its own): on a --host machine,
// dial-stdio starts it there. (On this machine, the command starts it
// itself: autoStartServer.)
func newStartingClient(cmd *cobra.Command) *control.Client {
	hosts, _ := hostsOf(cmd) // checked by checkHostFlags
	if len(hosts) > 0 {
		return control.NewHostClient(hosts[0])
	}
	return localClient(cmd)
}
