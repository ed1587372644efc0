// Package jobfile reads job files, jobtop.yaml (or .yml), Procfile,
// process-compose files and mprocs configs (mprocs.yaml), into a Plan: the jobs in file order as jobs.Spec
// values with their autostart flags, the file's top-level options, and a
// start order that honours depends_on. It also compares two plans for a
// reload (Diff).
//
// It owns parsing and validation only: it starts nothing (process-compose's
// env_cmds are handed to workspace to run) and imports no UI or API code;
// of jobtop's packages it imports jobs, and probe for the probes it builds
// (probe's HTTP client is the only network code it reaches).
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
//   - The .env beside a job file is read for every job, below the file's
//     own env (foreman, honcho and process-compose do so); LoadOptions
//     (-e, --no-env-file) replace or drop it, and a jobtop.yaml with a
//     top-level env_file does without it.
//   - A Procfile is read as foreman reads it: names of letters, digits,
//     "-" and "_"; PORT = base + 100 per type before it + 1 per instance
//     before it; PS=NAME.N; a formation names the instances NAME.N, and
//     types it does not name run all= instances (none by default).
//   - A process-compose file is told apart by its top-level processes:
//     key. It is mapped from the format's documentation (pcfile.go):
//     variables are expanded in its text first, as process-compose does;
//     fields with no counterpart, and unknown keys, become Plan.Warnings
//     (one per field, naming every line it is on) and the rest runs;
//     is_strict makes unknown keys errors. Its defaults stay its own
//     (bash, a 10 s grace, probes every 10 s, no restart limit).
//   - An mprocs config is told apart by its name (mprocs.yaml, .yml,
//     .json) or by a top-level procs: key (mprocs.go, from mprocs' own
//     src/mprocs/config.rs): every proc runs on a terminal, as in mprocs;
//     its stop waits 10 s before SIGKILL and autorestart restarts on
//     failure (100 ms doubling to 30 s, no limit), mprocs' numbers.
//     Procs run, and relative paths start, where mprocs would run: the
//     file's directory when it was found there, else the current
//     directory (mprocs --config FILE); <CONFIG_DIR> is the file's
//     directory. env: NAME: null removes NAME from what the job inherits
//     (Spec.Environ, jobtop's environment without it). stop's send-keys
//     are typed into the job's terminal (Spec.StopInput), encoded as a
//     terminal sends them (mprocskeys.go). No .env is read.
//     Names a job name cannot have are made ones ("my process" runs as
//     my-process), with a warning. UI settings, and fields with no
//     counterpart, are warnings, unknown keys too (mprocs ignores them).
//   - tty: true runs a job on a terminal (jobs.Spec.TTY); a top-level tty
//     is every job's default, but a job with stdin: pipe and no tty of its
//     own runs on pipes. process-compose's is_tty and is_interactive both
//     map to tty.
//   - A readiness_probe is jobtop's ready probe and also its health check
//     (the same Probe value, so the passing ready check counts as the
//     first health check), unless a liveness_probe is the health check.
package jobfile
