package control

import (
	"fmt"
	"strconv"
	"strings"
)

// APIVersion is the version of the API this jobtop speaks. It grows when
// a change would mislead an older peer; an instance reports it in
// GET /v1/instance, and the far end of an ssh channel announces it first.
//
// Version 1 is the first with a version: HTTP/1.1 and, for channels over
// ssh, HTTP/2 without TLS on the same socket. An instance that reports no
// version (0) predates it and cannot serve a client over ssh.
//
// Version 2 adds a new job's "after" and /v1/parallel; a client that gets
// "unknown field" or "no endpoint" from an older instance says so.
const APIVersion = 2

// MinAPIVersion is the oldest far end a client over ssh accepts.
const MinAPIVersion = 1

// MinClientAPIVersion is the oldest client jobtop dial-stdio serves.
const MinClientAPIVersion = 1

// bannerPrefix starts the one line jobtop dial-stdio writes before it
// bridges its stdin and stdout to the socket: "jobtop-api 1\n", the API
// version of the instance behind it. After it, the channel carries the
// API byte for byte.
const bannerPrefix = "jobtop-api "

// maxNoise bounds what a client reads looking for the banner (a far
// shell's startup files may print lines before it).
const maxNoise = 4 << 10

// banner is the line announcing an instance of the given API version.
func banner(version int) string { return bannerPrefix + strconv.Itoa(version) + "\n" }

// parseBanner reads the API version from a banner line (without its
// newline).
func parseBanner(line string) (int, bool) {
	rest, ok := strings.CutPrefix(line, bannerPrefix)
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(strings.TrimSpace(rest))
	if err != nil || v < 0 {
		return 0, false
	}
	return v, true
}

// VersionError says the far end speaks an API older than this jobtop
// accepts.
type VersionError struct {
	// Host names the host; URL is it as given (ssh://...).
	Host, URL string
	// Far is the far end's API version (0: it predates versions).
	Far int
}

func (e *VersionError) Error() string {
	far := fmt.Sprintf("API version %d", e.Far)
	if e.Far == 0 {
		far = "API version 0 (it predates API versions and jobtop dial-stdio)"
	}
	return fmt.Sprintf("jobtop on host %s speaks %s; this jobtop speaks version %d and needs version %d or newer: upgrade jobtop on %s, then restart its instance (ssh %s jobtop shutdown)",
		e.Host, far, APIVersion, MinAPIVersion, e.Host, e.URL)
}
