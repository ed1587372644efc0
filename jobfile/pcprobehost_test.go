package jobfile

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/probe"
)

// http_get.host is a host name or address; a URL there is said to be
// one, at the host's line, with where its parts go.
func TestProcessComposeHTTPHostIsNotAURL(t *testing.T) {
	inDir(t, nil)
	assert.Equal(t, []string{
		`process-compose.yaml:6:15: processes.a.readiness_probe.http_get.host: "http://127.0.0.1" is not a host name: host is a host name or address (127.0.0.1, localhost), not a URL; give the rest as scheme:, port: and path:`,
		`process-compose.yaml:10:39: processes.b.liveness_probe.http_get.host: "localhost/health" is not a host name: host is a host name or address (127.0.0.1, localhost), not a URL; give the rest as scheme:, port: and path:`,
	}, pcProblems(t, `processes:
  a:
    command: x
    readiness_probe:
      http_get:
        host: "http://127.0.0.1"
        port: 8080
  b:
    command: x
    liveness_probe: {http_get: {host: localhost/health}}
`))
}

// A host with its port, and no port: field, is the URL's host:port as
// process-compose builds it; an IPv6 address is bracketed.
func TestProcessComposeHTTPHostForms(t *testing.T) {
	for _, tc := range []struct{ httpGet, want string }{
		{"{host: 127.0.0.1:8080, path: /up}", "http://127.0.0.1:8080/up"},
		{"{host: localhost}", "http://localhost/"},
		{"{host: '::1', port: 9000}", "http://[::1]:9000/"},
		{"{host: '::1'}", "http://[::1]/"},
	} {
		t.Run(tc.httpGet, func(t *testing.T) {
			inDir(t, nil)
			plan, err := Parse("process-compose.yaml", []byte("processes:\n  a:\n    command: x\n    liveness_probe: {http_get: "+tc.httpGet+"}\n"))
			require.NoError(t, err)
			assert.Equal(t, jobs.ProbeCheck{Probe: &probe.HTTP{URL: tc.want, Status: 200}, Interval: 10 * time.Second}, plan.Jobs[0].Spec.Health)
		})
	}
}
