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
//   - Names follow CheckName everywhere (job files, API, CLI, TUI). A job
//     added without one is named after its program ("make", "server"),
//     made unique among the jobs with -2, -3.
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
package jobs
