package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A grpc probe (process-compose's pull request 483) is known, not an
// unknown key: jobtop has no gRPC check, so a probe that is only grpc is
// refused, saying what to write instead; beside exec or http_get, which
// process-compose would use first, it is ignored with a warning.
func TestProcessComposeGRPCProbe(t *testing.T) {
	inDir(t, nil)
	assert.Equal(t, []string{
		"process-compose.yaml:5:7: processes.a.readiness_probe.grpc: not supported: jobtop has no gRPC health check; give exec instead, e.g. exec: {command: grpc_health_probe -addr=127.0.0.1:50051}",
	}, pcProblems(t, `processes:
  a:
    command: x
    readiness_probe:
      grpc: {host: 127.0.0.1, port: 50051}
`))

	inDir(t, map[string]string{"pc.yml": `processes:
  a:
    command: x
    liveness_probe:
      exec: {command: "true"}
      grpc: {port: 50051}
`})
	plan, err := Load("pc.yml")
	require.NoError(t, err)
	require.NotNil(t, plan.Jobs[0].Spec.Health.Probe)
	require.Len(t, plan.Warnings, 1)
	assert.Equal(t, "pc.yml:6:7: processes.a.liveness_probe.grpc: not supported, ignored: jobtop has no gRPC health check; exec checks instead (process-compose uses it first too)", plan.Warnings[0].Error())
}
