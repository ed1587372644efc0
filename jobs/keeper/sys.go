package keeper

import "errors"

// What the keeper needs of the system, one file per system
// (sys_linux.go, sys_freebsd.go, sys_darwin.go):
//
//	becomeSubreaper() error
//		make orphaned descendants re-parent to the keeper;
//		errNoSubreaper where the system has no such thing
//	pidfdOpen(pid int) (int, error)
//	exitedChild() (pid int, can bool)
//		a child that has exited, left unreaped (waitid's WNOWAIT), so
//		its pidfd can still be opened; can is false where the system
//		cannot peek
//	pidfdSignal(fd int, sig syscall.Signal) error
//		signal a process through a descriptor that cannot name another
//		process; unix.ENOSYS where there is none
//	pidfdSignalGroup(fd int, sig syscall.Signal) error
//		signal the process group whose ID is the PID of fd's process
//		(the group it leads, or led: the descriptor still names it
//		once the process is reaped), atomically, so a child forked
//		meanwhile gets it too; unix.ENOSYS where there is no such
//		call, unix.EINVAL where the kernel is older than Linux 6.9
//	socketType, socketpair() ([2]int, error)
//		the keeper connection: SOCK_SEQPACKET, or SOCK_STREAM where
//		unix sockets lack it, framed then by wirestream.go
//
// Without a subreaper, the keeper follows what leaves a run's process
// tree by the run's session and the JOBTOP_RUN environment variable
// (tree.go: adopt).

// errNoSubreaper is the system having no child subreaper at all (macOS):
// not a failure, the keeper tracks by session and environment instead.
var errNoSubreaper = errors.New("this system has no child subreaper")

// noSubreaperEnv, set in a keeper's environment, makes it track by
// session and environment even where it could be a subreaper, and keep
// runs' held output in its table rather than a stash: the tests run the
// macOS way on Linux with it.
const noSubreaperEnv = "JOBTOP_KEEPER_NO_SUBREAPER"
