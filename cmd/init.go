package cmd

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// initChildEnv marks the jobtop that an init jobtop started, so it does
// not become an init itself.
const initChildEnv = "JOBTOP_INIT_CHILD"

// asInit reports whether jobtop is a container's init (PID 1) and should
// stay a minimal one: the kernel re-parents every orphan in the container
// to PID 1, and nothing else would reap them.
func asInit() bool { return os.Getpid() == 1 && os.Getenv(initChildEnv) == "" }

// runInit runs jobtop again as PID 1's child, in a process group of its
// own (in the terminal's foreground, if there is a terminal), passes every
// signal PID 1 gets on to it, reaps every process that reaches PID 1, and
// exits as the child does.
func runInit() int {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs)
	exe, err := os.Executable()
	if err != nil {
		exe = "/proc/self/exe"
	}
	attr := &syscall.ProcAttr{
		Env:   append(os.Environ(), initChildEnv+"=1"),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	}
	if _, err := unix.IoctlGetTermios(0, ioctlReadTermios); err == nil {
		attr.Sys.Foreground, attr.Sys.Ctty = true, 0
	}
	child, err := syscall.ForkExec(exe, os.Args, attr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "jobtop: as PID 1, cannot start itself:", err)
		return 1
	}
	for sig := range sigs {
		switch sig {
		case syscall.SIGCHLD:
			if code, done := reapAll(child); done {
				return code
			}
		case syscall.SIGURG, syscall.SIGTTOU, syscall.SIGTTIN, syscall.SIGTSTP:
			// Go's own preemption signal, and the terminal's stop signals
			// meant for the foreground group: not for the child.
		default:
			syscall.Kill(child, sig.(syscall.Signal)) //nolint:errcheck // the child is not reaped before SIGCHLD
		}
	}
	return 0
}

// reapAll reaps every exited process; done is true once one of them was
// the child, with the exit code to pass on.
func reapAll(child int) (code int, done bool) {
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
		if err == unix.EINTR {
			continue
		}
		if pid <= 0 || err != nil {
			return code, done
		}
		if pid == child {
			done = true
			code = ws.ExitStatus()
			if ws.Signaled() {
				code = 128 + int(ws.Signal())
			}
		}
	}
}
