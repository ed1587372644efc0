package jobfile

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/probe"
)

// process-compose takes 0 for these as "use the default" (its probe's
// ValidateAndSetDefaults, and its loader's default values): a file
// written so runs there, with the defaults, and so here, without a word.
func TestProcessComposeZeroIsTheDefault(t *testing.T) {
	exec := &probe.Exec{Command: "true"}
	for _, tc := range []struct {
		name, fields string
		check        func(t *testing.T, p *Plan)
	}{
		{"period_seconds 0", "readiness_probe: {exec: {command: \"true\"}, period_seconds: 0}", func(t *testing.T, p *Plan) {
			assert.Equal(t, jobs.ProbeCheck{Probe: exec, Interval: 10 * time.Second}, p.Jobs[0].Spec.Ready.Probe, "process-compose's 10s")
		}},
		{"timeout_seconds 0", "readiness_probe: {exec: {command: \"true\"}, timeout_seconds: 0}", func(t *testing.T, p *Plan) {
			assert.Equal(t, jobs.ProbeCheck{Probe: exec, Interval: 10 * time.Second}, p.Jobs[0].Spec.Ready.Probe, "1s, process-compose's as jobtop's")
		}},
		{"failure_threshold 0", "liveness_probe: {exec: {command: \"true\"}, failure_threshold: 0}", func(t *testing.T, p *Plan) {
			assert.Equal(t, jobs.ProbeCheck{Probe: exec, Interval: 10 * time.Second}, p.Jobs[0].Spec.Health, "3, process-compose's as jobtop's")
		}},
		{"failure_threshold \"0\"", "liveness_probe: {exec: {command: \"true\"}, failure_threshold: \"0\"}", func(t *testing.T, p *Plan) {
			assert.Equal(t, jobs.ProbeCheck{Probe: exec, Interval: 10 * time.Second}, p.Jobs[0].Spec.Health, "as a variable expands to")
		}},
		{"replicas 0", "replicas: 0", func(t *testing.T, p *Plan) {
			require.Len(t, p.Jobs, 1)
			assert.Equal(t, "a", p.Jobs[0].Name)
		}},
		{"shutdown.signal 0", "shutdown: {signal: 0}", func(t *testing.T, p *Plan) {
			assert.Contains(t, []jobs.Signal{0, jobs.DefaultStopSignal}, p.Jobs[0].Spec.StopSignal, "SIGTERM (0 is the spec's way to say it)")
		}},
		{"launch_timeout_seconds 0", "launch_timeout_seconds: 0", func(t *testing.T, p *Plan) {}},
		{"launch_timeout_seconds 5", "launch_timeout_seconds: 5", func(t *testing.T, p *Plan) {}},
		{"launch_timeout_seconds empty", "launch_timeout_seconds:", func(t *testing.T, p *Plan) {}},
		{"launch_timeout_seconds \"-1\"", "launch_timeout_seconds: \"-1\"", func(t *testing.T, p *Plan) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inDir(t, map[string]string{"pc.yml": "processes:\n  a:\n    command: x\n    " + tc.fields + "\n"})
			plan, err := Load("pc.yml")
			require.NoError(t, err)
			assert.Empty(t, plan.Warnings)
			tc.check(t, plan)
		})
	}
}

// A negative value is still refused: process-compose would take the
// default, but a minus sign is a slip, not a way to ask for it. A
// launch_timeout_seconds other than the default is still warned about.
func TestProcessComposeNegativeIsRefused(t *testing.T) {
	inDir(t, nil)
	assert.Equal(t, []string{
		"process-compose.yaml:4:64: processes.a.readiness_probe.period_seconds: -1 is negative",
		"process-compose.yaml:5:15: processes.a.replicas: -2 is negative",
		"process-compose.yaml:6:24: processes.a.shutdown.signal: signal number -15 is out of range 1-64",
	}, pcProblems(t, `processes:
  a:
    command: x
    readiness_probe: {exec: {command: "true"}, period_seconds: -1}
    replicas: -2
    shutdown: {signal: -15}
`))
	inDir(t, map[string]string{"pc.yml": "processes:\n  a: {command: x, launch_timeout_seconds: 30}\n"})
	plan, err := Load("pc.yml")
	require.NoError(t, err)
	require.Len(t, plan.Warnings, 1)
	assert.Equal(t, "pc.yml:2:19: processes.a.launch_timeout_seconds: not supported, ignored: "+pcUnsupported()["launch_timeout_seconds"], plan.Warnings[0].Error())
}
