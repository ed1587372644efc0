// Package control is jobtop's local API: an HTTP+JSON server that serves a
// jobs.Manager on a unix socket, and the client that the CLI commands and an
// attached TUI use. It imports jobs and the standard library only; it must
// never import ui, cmd or any charm package.
//
// Endpoints (all JSON; errors are {"error": "..."} with a 4xx/5xx status):
//
//	GET    /v1/instance              who serves this socket (pid, kind, since, api_version);
//	                                 while it loads its job file, at once, with "loading"
//	                                 (the file), and every other request (and
//	                                 ?loaded=1) waits until its jobs are in place
//	GET    /v1/jobs                  every job, oldest first
//	POST   /v1/jobs                  start a job from a StartRequest
//	GET    /v1/jobs/{id}             one job
//	DELETE /v1/jobs/{id}             remove a finished job
//	POST   /v1/jobs/{id}/stop        stop (grace rules); ?wait=true waits for the end
//	POST   /v1/jobs/{id}/kill        SIGKILL the process group; ?wait=true as above
//	POST   /v1/jobs/{id}/restart     new run, same ID; ?wait=true waits for it to start
//	GET    /v1/jobs/{id}/wait        block until the job ends (?timeout=DUR);
//	                                 ?ready=true: until it is ready, or ends
//	GET    /v1/jobs/{id}/output      lines after ?cursor=C (see OutputQuery)
//	GET    /v1/output                every job's lines in arrival order (see AllOutputQuery)
//	GET    /v1/events                NDJSON: a snapshot, then event batches
//	                                 (the snapshot and its own lines: the limit)
//	POST   /v1/reload                re-read the instance's job file (see Reloader)
//	GET    /v1/dropped               how the jobs the cap on finished jobs removed
//	                                 ended, those that did not succeed (DroppedEnds)
//	GET    /v1/parallel              the limit on jobs running at once (Parallel)
//	PUT    /v1/parallel              set it now: {"max_running": N}, 0 for no limit
//	POST   /v1/jobs/stop             stop the jobs a BulkRequest picks (also kill,
//	                                 restart, remove); ?wait=true as above
//	POST   /v1/shutdown              stop every job, then the instance ends
//
// Decisions worth knowing:
//   - A StartRequest's after names jobs by ID or by name; the server
//     turns each name into the ID of the newest job with it when it
//     answers the request (jobs.Spec.After holds IDs only), so the new
//     job waits for the job the client meant, whatever is named so later.
//   - The job object on the wire is jobs.Info's JSON. Durations in requests
//     are strings ("30s"); a relative cwd is refused, because the server's
//     working directory means nothing to a client.
//   - The socket's lock file (SOCKET.lock, held with flock for the server's
//     life) tells a live instance from a stale socket: a socket whose lock
//     is free is left over from a dead instance and is replaced; a live one
//     is never taken over.
//   - Connections from a uid other than the server's are answered 403 and
//     closed (SO_PEERCRED), on top of the 0600 socket in a 0700 directory.
//     The client, for its part, connects only to a socket in a directory
//     of its user's that no one else may write to, served by its user (trust.go).
//   - Answers are bounded (outputpage.go): an output read returns at most
//     MaxOutputLines lines and MaxOutputBytes of text (DefaultOutputLines
//     when the query names no max), says "more" when cut, and is copied out
//     of the stores a batch at a time while its JSON is written. At most
//     MaxStreams follow/wait/event requests are open at once (limits.go).
//   - Waiting (long-poll output, wait, stop/kill/restart with wait=true) is
//     driven by the manager's event subscription, never by polling.
//   - Client satisfies the TUI's engine interface for attach: it keeps a
//     local mirror of every job and its output, fed by the event stream and
//     bulk cursor reads in its own goroutine, so drawing never waits on the
//     socket; a second goroutine fetches, one request at a time, the older
//     lines the instance holds that the mirror does not (mirrorbackfill.go).
//   - Other machines (host.go, sshconn.go, hostclient.go): a client of a
//     Host differs from a local one only in where its net.Conn comes
//     from. It runs the user's own ssh with `jobtop dial-stdio` on the
//     far side, which connects to the instance's socket there, trusting
//     it as a local client would, writes one line, "jobtop-api N", and
//     then bridges the channel to the socket byte for byte
//     (dialstdio.go). The socket speaks HTTP/1.1 and HTTP/2 without TLS
//     (prior knowledge); a client over ssh speaks HTTP/2, so one ssh
//     connection carries all its requests and streams at once, instead of
//     an ssh handshake per request (ssh's ControlMaster would need the
//     user's config and leave a master process behind). Its pings notice
//     a host that vanished.
//   - The API has a version (version.go): GET /v1/instance reports it, and
//     the banner carries the far instance's. A client refuses an older far
//     end naming both versions; a jobtop older than dial-stdio is told by
//     its "unknown flag: --api" (the flag comes first, so an old jobtop
//     stops there instead of taking "dial-stdio" for a job to run).
//   - With SetReconnect, an attached mirror that loses its events stream
//     says so (Connection) and connects again every ReconnectDelay, then
//     brings itself up to the snapshot: the same instance keeps its jobs
//     and their output goes on from the mirror's cursors; another one (PID
//     and start differ) replaces them (reconnect.go). With
//     SetReconnectSame as well, only the same instance is connected
//     again, none is started, and the mirror ends once it is gone.
//   - Hosts is the TUI's engine over several instances: jobs get IDs of
//     its own, carry their host (jobs.Info.Host, HostID) and every action
//     goes to the job's own host (hosts.go).
package control
