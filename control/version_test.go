package control

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An instance started by an older jobtop, still running, refuses what it
// does not know ("no endpoint", "unknown field"); the client says why,
// and what to do, rather than leave the user to guess. One as new as the
// client adds nothing.
func TestAnOlderInstanceIsSaidToBe(t *testing.T) {
	for _, version := range []int{APIVersion - 1, APIVersion} {
		socket := filepath.Join(shortTempDir(t), "s.sock")
		l, err := net.Listen("unix", socket)
		require.NoError(t, err)
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/instance" {
				writeJSON(w, http.StatusOK, Instance{Kind: "serve", PID: 42, APIVersion: version})
				return
			}
			writeError(w, &RequestError{Status: http.StatusNotFound, Msg: "no endpoint " + r.Method + " " + r.URL.Path + "; the API lives under /v1/ (see GET /v1/jobs)"})
		})}
		go srv.Serve(l) //nolint:errcheck // ends with Close
		c := NewClient(socket)
		_, err = c.SetParallel(context.Background(), 3)
		older := fmt.Sprintf("the jobtop instance there, pid 42, is older than this jobtop: it speaks API version %d, this one %d; an instance started again by this jobtop has it, but `jobtop shutdown` stops every job it runs", APIVersion-1, APIVersion)
		if version < APIVersion {
			assert.ErrorContains(t, err, "no endpoint PUT /v1/parallel")
			assert.ErrorContains(t, err, older)
		} else {
			assert.ErrorContains(t, err, "no endpoint PUT /v1/parallel")
			assert.NotContains(t, err.Error(), "older")
		}
		c.Close()
		srv.Close()
	}
}
