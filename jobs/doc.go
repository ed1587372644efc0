// Package jobs runs shell jobs and captures their output. It owns everything
// about processes: starting each job in a session of its own, reading its
// stdout and stderr concurrently from the first byte, keeping a bounded tail
// of lines in memory (OutputStore) and every byte in a per-job log file,
// stopping and killing whole process trees, restarts, a concurrency limit and
// coalesced change events for subscribers.
//
// The package is a library on its own: it imports no UI and no HTTP code.
//
// # Process lifetime
//
// Every process a job starts stays under jobtop's control until jobtop has
// seen it die, however jobtop itself ends. A Manager starts one keeper
// process (package keeper: jobtop re-executed), which starts every run's
// main process in a session of its own (with no controlling terminal and
// stdin on /dev/null, unless it is a TTY job or takes stdin from a pipe:
// see below), is the child subreaper of everything they start, and
// signals only processes it has just found in the process table, through
// pidfds checked against their start time. Jobtop never signals a job's
// PID itself. Stdout and stderr are pipes from the job straight to jobtop.
//
//   - A run ends when its main process has exited and no process of it is
//     left. When the main process exits by itself, what it left running is
//     stopped the way Stop stops a job (the stop signal, the grace, then
//     SIGKILL), and its output ends with "stopped N processes left
//     running". Its pipes are then read until EOF, for at most
//     drainTimeout: a daemon that escaped and holds stdout cannot keep a
//     job running.
//   - A stop (and a restart, a reload, Shutdown) sends the stop signal to
//     every process of the run and waits the grace period before SIGKILL,
//     also when the main process is a wrapper (dash's sh -c) that exits at
//     once.
//   - If jobtop dies, however (SIGKILL included), the keeper's lifeline
//     ends and it stops every run the same way, then exits. If the keeper
//     dies, the manager kills what its runs left and starts a new one for
//     the next job. If both die, StopLeftovers, given the record a Manager
//     keeps at Options.RecordPath, stops what they left.
//   - Nothing slow happens under the manager's lock: resolving the program,
//     making pipes and the keeper's fork and exec happen while the run is
//     queued with the reason "starting" (ReasonStarting); Start and
//     Restart return once it has started.
//
// # Other decisions worth knowing
//
//   - IDs are small integers per Manager, starting at 1, never reused;
//     with Options.IDPath, after the last one an earlier manager on the
//     same file took (idmark.go), so not across managers either.
//   - A job's dependencies are of two kinds: Spec.DependsOn names jobs by
//     name (a job file's depends_on: the newest job with the name when
//     it is checked), and Spec.After by ID (pueue's --after: the very
//     jobs a client named, whatever is given their names later; each must
//     exist when the job is added, and must succeed). Both are judged
//     by the scheduler with the same conditions, and a dependency found
//     met that is removed later stays met.
//   - The limit on running jobs (Options.MaxRunning) can change while the
//     manager runs (SetMaxRunning): a higher one starts queued jobs at
//     once, in queue order; a lower one stops nothing.
//   - Names follow CheckName everywhere (job files, API, CLI, TUI). A job
//     added without one is named after its program ("make", "server"; a
//     shell line's first program, past "cd DIR &&", "set -e;" and the like
//     and into a loop's or an if's body; "sh" for a compound command that
//     runs none), made unique among the jobs with -2, -3.
//   - A job that ends after a stop or kill someone asked for ends "killed",
//     whatever its exit status, so a person sees the outcome they caused; the
//     exit code is still recorded. A timeout ends "timed_out".
//   - A run keeps the spec it started with: Replace stops the old run with
//     the old stop signal and grace.
//   - Output lines are committed on "\n"; a lone "\r" rewrites the line being
//     built (progress bars). Lines longer than Options.MaxLineBytes are split,
//     never inside an escape sequence or a UTF-8 character that began at
//     most 4 KiB before the cut (it goes to the next piece); the next
//     piece opens with the colours in effect at the cut.
//   - Colours last across lines as on a terminal: a job's line that ends
//     with colours in effect (termtext.Pen) hands them to the stream's
//     next line, kept opening with them, so each line draws alone as the
//     job drew it. Meta lines take none; a run's end drops them. Only a
//     read with an ESC in it is looked at for them.
//     The line being built is visible to readers as a partial line that does
//     not advance their cursor.
//   - Output is read through Go's poller (non-blocking pipes), with read
//     buffers lent from a pool only while a read holds data: an idle job
//     costs no OS thread and no buffer.
//   - A pipe's escape sequences are stored as written, but for those a
//     terminal edits a line with (a backspace, moves along the row,
//     erases, a saved cursor's restore: played, as a terminal job's are,
//     once the output has had one) and text drawn in the DEC line-drawing
//     set (kept as the characters drawn: termtext.Charsets, for both);
//     making the rest safe for a terminal is the drawing side's job.
//   - Ready and health probes are an interface (Probe); the HTTP, TCP and
//     command probes live in jobtop/probe, so this package needs no network
//     code. One goroutine per run runs them one check at a time, off the
//     manager's lock; it is cancelled when the run is being stopped, and
//     the run is reaped only once it (and a stop command) is over.
//   - A health check starts once the run is ready. An unhealthy job is
//     stopped (request reqUnhealthy) only when its restart policy restarts
//     failed jobs, and the policy starts it again; a stop or kill someone
//     asks for meanwhile wins, and no restart follows.
//   - The store copies only committed line text, packed into slabs of at
//     most 64 KiB that empty oldest first, and counts the slabs whole
//     against MaxBytes (StoreStats.Memory is every byte kept alive); a
//     finished run is repacked with no slack. Reads pick lines before they
//     copy any (Select).
//   - A job's log rotates at its cap (<id>.log.1 keeps the file before),
//     begins each run with a separator line, and is opened fresh, never
//     appended to. After a write error (a full disk) it counts what it
//     drops and tries the file again at the next run and every
//     logRetryEvery, marking where writing resumed. A manager locks its
//     log directory while it runs, and its keeper holds the directory's
//     keeper lock on after it until it has drained what the runs it
//     stops write (a new manager there waits for that, keeperLockWait,
//     then refuses); on start, it prunes other session directories past
//     Options.Sessions.
//   - A TTY job (Spec.TTY) runs on a pseudo-terminal that jobtop opens:
//     the keeper makes the slave the main process's stdin, stdout, stderr
//     and controlling terminal, jobtop keeps the master and reads it like
//     a pipe (non-blocking, in Go's poller), as one stream, Stdout. The
//     terminal turns "\n" into "\r\n", which the store takes as a line
//     end, not a rewrite. Input writes to the master (what a person would
//     type: "\x03" is an interrupt); Resize sets its size (SIGWINCH), and
//     a job keeps its size across runs. Closing the master when the run
//     has ended hangs up what is left, but the keeper's tree kill is what
//     guarantees nothing stays.
//   - A pipe job with Spec.Stdin StdinPipe gets a pipe on stdin that
//     Input writes to; it is closed only when the run ends. Input gives up
//     after inputTimeout on a job that does not read.
//   - Defaults live in one place each: a spec's (stop signal, grace,
//     restart backoff and limit) are filled by Spec.withDefaults and
//     RestartPolicy.WithDefaults; a manager's (finished jobs kept, session
//     retention) by its Options.
package jobs
