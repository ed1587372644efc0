package cmd

import (
	"encoding/json"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// jobtop status says what a job's probes found: whether its ready check
// passed (and why not), what its health check finds (and why it failed).
func TestStatusShowsProbes(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String()
	require.NoError(t, ln.Close())
	c := newCLI(t)
	c.serveJobFile(`jobs:
  waiting:
    cmd: exec sleep 60
    ready: {tcp: "` + closed + `", interval: 20ms, failures: 2}
  sick:
    cmd: exec sleep 60
    health: {exec: "exit 3", interval: 20ms, failures: 2}
  fine:
    cmd: exec sleep 60
    ready: {exec: "true", interval: 20ms}
    health: {exec: "true", interval: 20ms}
`)
	require.Eventually(t, func() bool {
		return c.status("waiting").ReadyError != "" && c.status("sick").Health == jobs.HealthUnhealthy &&
			c.status("fine").Health == jobs.HealthHealthy
	}, testTimeout, 50*time.Millisecond)

	assert.Regexp(t, `(?m)^ready: +not yet: .*connection refused \(tcp: 127\.0\.0\.1:\d+\)$`, c.ok("status", "waiting"))
	assert.Regexp(t, `(?m)^health: +unhealthy: .*exit 3 \(exec: exit 3, every 20ms, 2 failures\)$`, c.ok("status", "sick"))
	fine := c.ok("status", "fine")
	assert.Regexp(t, `(?m)^ready: +yes \(exec: true\)$`, fine)
	assert.Regexp(t, `(?m)^health: +healthy \(exec: true, every 20ms\)$`, fine)

	c.ok("kill", "fine")
	assert.Regexp(t, `(?m)^health: +not checked: the job does not run`, c.ok("status", "fine"))
}

// A job file's description: reaches the job object and jobtop status;
// a job without one shows no about line.
func TestStatusShowsDescription(t *testing.T) {
	c := newCLI(t)
	c.serveJobFile(`jobs:
  web:
    cmd: exec sleep 60
    description: the API and the pages
  plain:
    cmd: exec sleep 60
  block:
    cmd: exec sleep 60
    description: |
      first line
      second line
`)
	// One field a line, on a pipe too: a block description is joined.
	assert.Regexp(t, `(?m)^about: +first line ⏎ second line\ncwd:`, c.ok("status", "block"))

	assert.Contains(t, c.ok("status", "web", "--json"), `"description": "the API and the pages"`)
	assert.Regexp(t, `(?m)^about: +the API and the pages$`, c.ok("status", "web"))
	assert.Contains(t, c.ok("ls", "--json"), `"description": "the API and the pages"`)
	assert.NotContains(t, c.ok("status", "plain"), "about:")
	assert.NotContains(t, c.ok("status", "plain", "--json"), `"description"`)
}

// A job that succeeded is ready, as its dependants see it, also when its
// ready check never passed: ls --json says "ready": true, as the API
// does, and status says how; one that failed is not ready.
func TestASucceededJobIsReadyInTheCLI(t *testing.T) {
	c := newCLI(t)
	c.serveJobFile(`jobs:
  build:
    cmd: echo built
    ready: {log: never printed}
  broken:
    cmd: exit 3
  after:
    cmd: "true"
    depends_on: {build: ready}
`)
	for _, name := range []string{"build", "broken", "after"} {
		c.run("wait", name) // (broken fails)
	}
	var list []struct {
		Name  string
		State jobs.State
		Ready bool
	}
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &list))
	ready := map[string]bool{}
	for _, j := range list {
		ready[j.Name] = j.Ready
	}
	assert.Equal(t, map[string]bool{"build": true, "broken": false, "after": true}, ready, "%+v", list)
	assert.Regexp(t, `(?m)^ready: +yes: it succeeded, before its check passed \(log: never printed\)$`, c.ok("status", "build"))
}
