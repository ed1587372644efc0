// Package keeper keeps every process a job starts under jobtop's control
// until jobtop has seen it die, however jobtop itself ends.
//
// One keeper process serves one jobtop instance (a jobs.Manager). It is
// jobtop re-executed (see reexec.go), tiny and single-purpose:
//
//   - It starts each run's main process, in a session of its own (no
//     controlling terminal) with the stdin, stdout and stderr jobtop hands
//     it over the connection. It copies no output: the pipes go straight
//     from the job to jobtop.
//   - It is a child subreaper (PR_SET_CHILD_SUBREAPER on Linux,
//     PROC_REAP_ACQUIRE on FreeBSD), so double-forked and setsid
//     descendants re-parent to it instead of to init: it can always find
//     them, and it reaps them. macOS has no subreaper: orphans go to
//     launchd, and the keeper finds them in the process table by their
//     run's session or their JOBTOP_RUN variable (tree.go: adopt); one
//     that left the session and dropped the variable is lost to it.
//   - It sorts its descendants into runs: a run's main process and
//     everything below it; an adopted process by its session (a run's
//     session ID is its main PID), else by the run's stdout or stderr
//     (a pipe or terminal jobtop made for that run alone) that it still
//     holds (Linux), else by the JOBTOP_RUN variable every run's
//     environment carries. Only a process that left the session, dropped
//     its environment and closed its output before its parent died is of
//     no known run; those are stopped when the instance ends.
//   - Where the system lets it make cgroups (v2), it starts each run's
//     main process in a cgroup of its own (cgroup_linux.go), which no
//     process can leave by itself: that names the run of any process in
//     it, whatever else it changed, and lets the run's leftovers be
//     found when the keeper and jobtop are both gone (InCgroup).
//   - It signals only what it has just found in the process table, through
//     a pidfd opened and checked against the process's start time (where
//     there are no pidfds, the start time is checked just before kill), so a
//     reused PID never receives a signal meant for a process that is gone.
//     It reaps everything itself, so no PID it signals can be reused
//     behind its back. Where the kernel can (Linux 6.9 and later), the
//     process group a run's main process leads gets the signal as one,
//     through the main process's pidfd (opened for the signal while the
//     process is unreaped, or when it exits and kept until the run ends):
//     a child forked after the look, or during the signal, cannot slip
//     past it.
//   - The connection is the lifeline: only jobtop holds the other end, so
//     EOF means jobtop is gone, however it went (SIGKILL included). The
//     keeper then stops every run (its stop signal, its grace, SIGKILL),
//     waits until no descendant is left, and exits.
//
// Why one keeper per instance and not one per job: a keeper is a Go
// process, about 600 KB of private memory and 4 threads; a thousand jobs
// would cost 600 MB and 4,000 threads. One keeper costs that once, and
// signalling many runs at once costs one look at the process table.
package keeper
