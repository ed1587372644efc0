package keeper

import (
	"net"
	"os"
	"os/exec"
	"syscall"

	"jobtop/jobs/proc"
)

// A keeper is jobtop itself, started again with argv[0] set to keeperArgv0
// and keeperEnv in its environment. Every program that imports this
// package (jobtop, and the test binaries of its packages) turns into a
// keeper that way, before its main runs.
const (
	keeperArgv0 = "jobtop-keeper"
	keeperEnv   = "JOBTOP_KEEPER"
	// protocol names what the two sides speak on the connection: "2"
	// since its messages are encoded as wirecodec.go says ("1": JSON).
	protocol = "2"
	// lifelineFD is where the keeper finds its end of the connection.
	lifelineFD = 3
)

func init() {
	if len(os.Args) == 1 && os.Args[0] == keeperArgv0 && os.Getenv(keeperEnv) == protocol {
		// Package init runs locked to the main thread: a keeper run there
		// would hand its thread over at every wait (each wait a sleep and
		// a wake of that one thread, about 16 a start). It runs on an
		// ordinary goroutine while this one waits for its exit code.
		code := make(chan int)
		go func() { code <- runKeeper() }()
		os.Exit(<-code)
	}
}

func runKeeper() int {
	f := os.NewFile(lifelineFD, "lifeline")
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		return 2
	}
	// What jobtop had open without close-on-exec when it started this
	// keeper (a library's epoll descriptor in the TUI) is no job's.
	proc.CloseOnExecInherited()
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 2
	}
	return serve(uc)
}

// keeperTestEnv is added to a keeper's environment; tests set it.
var keeperTestEnv []string

// keeperCommand is the command that starts a keeper on the given end of
// the connection: this program again, in a session of its own (no
// terminal, so no terminal's signals), with nothing on stdin, stdout or
// stderr. It inherits holds after the lifeline (fds 4, 5, ...), and
// keeps them open, never looked at, until it exits (see Start).
func keeperCommand(lifeline *os.File, holds []*os.File) *exec.Cmd {
	return &exec.Cmd{
		Path:        selfPath(),
		Args:        []string{keeperArgv0},
		Env:         append([]string{keeperEnv + "=" + protocol}, keeperTestEnv...),
		ExtraFiles:  append([]*os.File{lifeline}, holds...),
		SysProcAttr: &syscall.SysProcAttr{Setsid: true},
	}
}
