//go:build !linux && !darwin && !freebsd

package proc

// jobtop runs on Linux, macOS and FreeBSD: it is built on their process
// groups, sessions, signals and unix sockets. This file stops a build for
// any other system (Windows above all) here, at the bottom of the import
// graph, with one message instead of a page of undefined names from the
// packages above.
var _ = jobtop_runs_on_Linux_macOS_and_FreeBSD_only
