// Package jobs runs shell jobs and captures their output. It owns everything
// about processes: spawning each job in its own process group, reading its
// stdout and stderr concurrently from the first byte, keeping a bounded tail
// of lines in memory (OutputStore) and every byte in a per-job log file,
// stopping and killing whole process trees, restarts, a concurrency limit and
// coalesced change events for subscribers.
//
// The package is a library on its own: it imports no UI and no HTTP code.
//
// Decisions worth knowing:
//   - IDs are small integers per Manager, starting at 1, never reused.
//   - A job that ends after a stop or kill someone asked for ends "killed",
//     whatever its exit status, so a person sees the outcome they caused; the
//     exit code is still recorded. A timeout ends "timed_out".
//   - When a job's main process exits, anything still running in its process
//     group is killed: nothing a job started outlives it.
//   - Output lines are committed on "\n"; a lone "\r" rewrites the line being
//     built (progress bars). Lines longer than Options.MaxLineBytes are split.
//     The line being built is visible to readers as a partial line that does
//     not advance their cursor.
//   - Escape sequences are stored exactly as written; making them safe for a
//     terminal is the drawing side's job.
//   - The store copies only committed line text, packed into slabs of at
//     most 64 KiB that empty oldest first, and counts the slabs whole
//     against MaxBytes (StoreStats.Memory is every byte kept alive); a
//     finished run is repacked with no slack. Reads pick lines before they
//     copy any (Select).
//   - A job's log rotates at its cap (<id>.log.1 keeps the file before),
//     begins each run with a separator line, and is opened fresh, never
//     appended to. A manager locks its log directory while it runs and, on
//     start, prunes other session directories past Options.Sessions.
//   - Defaults live in one place each: a spec's (stop signal, grace,
//     restart backoff and limit) are filled by Spec.withDefaults and
//     RestartPolicy.WithDefaults; a manager's (finished jobs kept, session
//     retention) by its Options.
package jobs
