// Package ui is jobtop's terminal interface: a Bubble Tea program over a
// job engine. It holds view state only (the job table's selection, the
// output pane's scroll position, focus, layout, prompts) and never owns
// output bytes: it reads the lines it is about to draw from the job's
// output store through the Engine interface, so the in-process
// *jobs.Manager and a client of another instance's local API can both
// drive it.
//
// It imports jobs (for its types), keymap and styles; it must not import
// cmd or control, and nothing in jobs may import it.
//
// Decisions worth knowing:
//   - Job events reach Update through one command that waits on the
//     engine's subscription and is issued again after each batch, so there
//     is at most one output message per frame however fast jobs write.
//   - Actions on jobs (start, stop, kill, restart, remove) run as commands
//     off the Update goroutine and report back with actionDoneMsg; errors
//     show in the status bar.
//   - The output pane reads only the lines it shows (Tail, ReadAfter), lays
//     them out with layoutLine (sanitized, cut or wrapped) when they change,
//     and View only joins rows: a frame's cost does not grow with a job's
//     output.
//   - The job table draws its visible rows only, keeps the selection on the
//     same job as rows come and go, and drops columns (LINES, PID, EXIT,
//     TIME) as the terminal narrows, keeping the last output line longest.
//   - Quitting with jobs running asks first. In local mode the jobs are
//     then stopped with their grace rules and jobtop exits once none is
//     left; in attached mode (Config.Attached) quitting leaves them running.
//   - R reloads the instance's job file. It is offered only when
//     Config.JobFile names one and the engine is a Reloader (an optional
//     interface, so a bare *jobs.Manager stays an Engine); the status bar
//     shows what changed, or why nothing did.
package ui
