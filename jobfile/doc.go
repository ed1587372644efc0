// Package jobfile reads job files, jobtop.yaml (or .yml) and Procfile, into
// a Plan: the jobs in file order as jobs.Spec values with their autostart
// flags, the file's top-level options, and a start order that honours
// depends_on. It also compares two plans for a reload (Diff).
//
// It owns parsing and validation only: it starts nothing and imports no UI
// or HTTP code; of jobtop's packages it imports only jobs.
//
// Decisions worth knowing:
//   - Validation is strict and collects every error it can find before
//     anything starts, each as "FILE:LINE:COL: what is wrong" (Procfile and
//     env files, being line based, as "FILE:LINE: ...").
//   - Relative paths (cwd, env_file, log.dir) are relative to the job
//     file's directory, which is also every job's default working
//     directory. cwd must exist when the file is loaded.
//   - A job's environment is the top-level env, then its env_file(s), then
//     its env, later ones winning. Values are taken literally; the shell
//     expands $VARS in cmd.
//   - Scalars are accepted where text is wanted (cmd: true, PORT: 8080,
//     argv: [sleep, 5]); numbers, durations and true/false are not accepted
//     as text (timeout: "5s" is fine, timeout: 5 is an error: no unit).
//   - Anchors, aliases and merge keys (<<: *defaults) work; top-level keys
//     starting with "x-" are ignored so they can hold anchors.
//   - restart: what a policy does not give is left to the engine's
//     defaults (jobs.RestartPolicy.WithDefaults: backoff 1s doubling up to 1m, max
//     5), as for jobs started through the API; max: 0 means no limit
//     (jobs.NoRestartLimit).
//   - Job names use letters, digits, ".", "_" and "-", and are not all
//     digits (job IDs are numbers).
package jobfile
