package workspace

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"jobtop/jobs"
)

// A process that depends on a disabled one runs, as in process-compose,
// instead of waiting for it for ever; the disabled one stays created.
func TestProcessComposeDependantOfDisabledRuns(t *testing.T) {
	f := openPC(t, `processes:
  off: {command: exec sleep 1000, disabled: true}
  web:
    command: exec sleep 1000
    depends_on: {off: {condition: process_started}}
`)
	f.running("web")
	assert.Equal(t, jobs.StateCreated, f.job("off").State)
}
