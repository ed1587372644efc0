package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A process's environment entries are templates too, as process-compose
// renders them: with the vars and PC_REPLICA_NUM, is_template_disabled or
// not (that keeps only command as written).
func TestProcessComposeRendersEnvironment(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("process-compose.yaml", []byte(`vars: {DB_HOST: db.local}
processes:
  api:
    command: "echo {{.DB_HOST}}"
    replicas: 2
    environment:
      - "DB_URL=postgres://{{.DB_HOST}}:5432/app"
      - "INSTANCE=api-{{.PC_REPLICA_NUM}}"
  raw:
    command: "echo {{.DB_HOST}}"
    is_template_disabled: true
    environment: {MODE: "{{.DB_HOST}}"}
`))
	require.NoError(t, err)
	for i, name := range []string{"api-0", "api-1"} {
		job, ok := plan.Job(name)
		require.True(t, ok, name)
		assert.Equal(t, "postgres://db.local:5432/app", job.Spec.Env["DB_URL"], name)
		assert.Equal(t, []string{"api-0", "api-1"}[i], job.Spec.Env["INSTANCE"], name)
	}
	raw, _ := plan.Job("raw")
	assert.Equal(t, "echo {{.DB_HOST}}", raw.Spec.Command)
	assert.Equal(t, "db.local", raw.Spec.Env["MODE"])

	assert.Equal(t, []string{
		`process-compose.yaml:4:19: processes.a.environment[0]: template: map has no entry for key "NOPE" (vars: give it under vars:)`,
	}, pcProblems(t, `processes:
  a:
    command: x
    environment: ["X={{.NOPE}}"]
`))
}
