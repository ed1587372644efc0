package cmd

import (
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An instance of an older jobtop refuses a bulk request naming a job it
// does not have, and acts on none of the others: the CLI says nothing
// was done (rev62: "no job with ID 99" alone read as the others stopped,
// as a newer instance acts on them).
func TestSeveralJobsOnAnOlderInstanceThatRefusesThemAll(t *testing.T) {
	c := newCLI(t)
	l, err := net.Listen("unix", c.socket)
	require.NoError(t, err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost && r.URL.Path == "/v1/jobs/stop" {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error": "no job with ID 99; GET /v1/jobs lists them"}`)) //nolint:errcheck // a test's answer
			return
		}
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error": "not found"}`)) //nolint:errcheck // a test's answer
	})}
	go srv.Serve(l) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })

	r := c.run("stop", "1", "99", "2")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: no job with ID 99; `jobtop ls` lists them; nothing was done: this instance (an older jobtop) acts on every job named or on none\n", r.stderr)
}
