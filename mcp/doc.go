// Package mcp is jobtop's MCP server: the tools a coding agent uses to run
// jobs in the jobtop instance a person watches, wait for them, read their
// output in pieces sized for a model's context, and stop them. It is a
// client of the instance's local API (control.Client), like the CLI; it
// never imports ui, and cmd wires it to a transport (stdio, or streamable
// HTTP on loopback).
//
// Decisions worth knowing:
//   - A tool names a job by ID or by name (the newest job with it); an
//     unknown one is a tool error that lists the jobs there are, so the
//     model can pick again.
//   - read_output returns at most 200 lines and 16 KiB of line text per
//     call by default (max_lines up to 1,000, max_bytes up to 64 KiB), and
//     cuts any one line at 2 KiB; it says how many lines are left after
//     next_cursor. Escape sequences are removed: colours cost a model
//     tokens and tell it nothing.
//   - Waiting (wait_for in run_job, wait_job) is capped at 10 minutes per
//     call; a wait that runs out is not an error, the answer says what the
//     job is doing and shows its last lines. A regex wait matches lines of
//     the job's current run (and the line being written), like jobtop wait
//     --until.
//   - search_output searches what memory holds (line numbers are the
//     lines' sequence numbers, the cursors of read_output), or with in_log
//     the job's log file (line numbers of the file), which is read where
//     jobtop mcp runs: the instance must be on the same machine.
//   - Jobs started here carry origin "mcp" and the MCP client's name (from
//     its initialize), which the TUI shows.
//   - run_job's tty: true runs a job on a terminal; send_input types into
//     it (text as is, then named keys, sent as a terminal sends them, the
//     arrows in the program's cursor mode) and read_screen reads its
//     screen as plain rows (terminal.go), optionally waiting for a regex
//     over the rows, polling the API: the wait is the model's, and a
//     prompt has no line end to wait for in read_output.
package mcp
