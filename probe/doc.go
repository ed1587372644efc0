// Package probe holds the checks a job file can name for a job's
// readiness or health: an HTTP GET (HTTP), a TCP connection (TCP) and a
// command (Exec). Each implements jobs.Probe; the job engine runs them (on
// its schedule, one at a time per job) without importing any network code
// itself.
//
// It imports jobs only; jobfile builds these probes from job files.
//
// Decisions worth knowing:
//   - HTTP passes on a status from 200 to 399, or on exactly the status
//     asked for. Redirects are not followed (a 3xx is an answer), the
//     connection is not kept alive between checks, and an https
//     certificate is not verified: dev servers use self-signed ones, and
//     Kubernetes probes do the same.
//   - Exec runs the command with the job's shell, in the job's directory
//     (or its own) and with the job's environment, in a process group of
//     its own that is SIGKILLed when the check ends, times out or is
//     cancelled: no probe process outlives its check.
//   - A failed check says why in one line: the status and the start of
//     the body (not of an HTML error page), the dial error, the command's
//     exit code and the last line it wrote.
package probe
