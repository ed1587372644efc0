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
//   - Ready and health probes are an interface (Probe); the HTTP, TCP and
//     command probes live in jobtop/probe, so this package needs no network
//     code. One goroutine per run runs them one check at a time, off the
//     manager's lock; it is cancelled when the run is being stopped, and
//     the run is reaped only once it (and a stop command) is over.
//   - A health check starts once the run is ready. An unhealthy job is
//     stopped (request reqUnhealthy) only when its restart policy restarts
//     failed jobs, and the policy starts it again; a stop or kill someone
//     asks for meanwhile wins, and no restart follows.
package jobs
