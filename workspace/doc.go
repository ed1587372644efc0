// Package workspace ties a job file to a running jobs.Manager: Open starts
// the file's jobs in their start order, and Reload re-reads the file and
// applies what changed to the live jobs. It owns the mapping from the
// file's job names to the manager's job IDs.
//
// It imports jobs and jobfile only; never ui, control or cmd.
//
// Decisions worth knowing:
//   - Only the file's own jobs are touched. Jobs started any other way
//     (the command line, jobtop run, the TUI) share the manager and are
//     left alone, even when they have the same name as a file job.
//   - Reload compares the new file with the jobs still there: a file job
//     someone removed by hand counts as added again.
//   - Added jobs start as at startup (Start, or Add for autostart: false),
//     in the new file's start order, so a dependency exists before its
//     dependants look for it.
//   - A changed job gets its new spec with Manager.Replace: a running or
//     queued one restarts with it. One that has ended runs again with it
//     when its autostart is on ("changed ones restart"); one never started
//     (autostart: false) stays that way.
//   - Removed jobs are stopped with their grace rules and removed from the
//     manager once they have ended, in the background: Reload does not
//     wait for them.
//   - A file that cannot be read or is not valid changes nothing: Reload
//     returns a *FileError with every problem.
//   - max_parallel and the log settings apply when the manager is made
//     (ManagerOptions). A reload that changes max_parallel sets the
//     manager's running limit to it at once (Manager.SetMaxRunning, over
//     --max-running and a limit set at run time); one that leaves it as
//     it was leaves the limit alone, whoever set it. A reload that
//     changes the log settings says they apply when jobtop starts again.
//   - A reload reads the file with the options it was first read with
//     (Plan.Options: env files, a Procfile's port and formation).
//   - process-compose's env_cmds run here, when the jobs start and on each
//     reload (/bin/sh, 2 s each), never when a file is only checked. Their
//     variables go under each file job's own; they are not part of the
//     plan's specs, so a command whose output changes does not make every
//     job "changed". One that fails leaves its variable unset (Problems).
package workspace
