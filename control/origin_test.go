package control

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A job started with an origin and a client name carries both in the job
// object of every answer, and the spec round-trips through SpecRequest.
func TestStartRequestOriginAndClient(t *testing.T) {
	in := startInstance(t)
	info, err := in.client.StartJob(ctxT(t), StartRequest{Command: "true", Origin: "mcp", Client: "claude-code"})
	require.NoError(t, err)
	require.Equal(t, "mcp", info.Origin)
	require.Equal(t, "claude-code", info.Client)

	list, err := in.client.Jobs(ctxT(t))
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "mcp", list[0].Origin)
	require.Equal(t, "claude-code", list[0].Client)

	req := StartRequest{Command: "true", Origin: "mcp", Client: "claude-code"}
	spec, err := req.Spec()
	require.NoError(t, err)
	require.Equal(t, req, SpecRequest(spec))

	plain := in.startJob(t, "true")
	require.Empty(t, plain.Origin, "a job started without an origin has none")
}
