package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func TestParseTTYAndStdin(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("jobtop.yaml", []byte(`tty: true
jobs:
  agent: {cmd: claude}
  build: {cmd: make, tty: false}
  feeder: {cmd: ./consume, stdin: pipe}
  quiet: {cmd: ./daemon, stdin: "null"}
`))
	require.NoError(t, err)
	got := map[string]jobs.Spec{}
	for _, j := range plan.Jobs {
		got[j.Name] = j.Spec
	}
	assert.True(t, got["agent"].TTY, "the top-level default")
	assert.False(t, got["build"].TTY, "a job's own tty wins")
	assert.False(t, got["feeder"].TTY, "stdin: pipe means pipes")
	assert.Equal(t, jobs.StdinPipe, got["feeder"].Stdin)
	assert.True(t, got["quiet"].TTY)
	assert.Equal(t, jobs.StdinNull, got["quiet"].Stdin)

	plan, err = Parse("jobtop.yaml", []byte("jobs:\n  a: {cmd: x}\n"))
	require.NoError(t, err)
	assert.False(t, plan.Jobs[0].Spec.TTY, "pipes by default")
}

func TestParseTTYErrors(t *testing.T) {
	inDir(t, nil)
	assert.Equal(t, []string{
		`jobtop.yaml:2:22: jobs.a.stdin: stdin "tty" is not one of null, pipe`,
		`jobtop.yaml:3:26: jobs.b.stdin: stdin: pipe is for jobs on pipes; a tty job reads its terminal`,
		`jobtop.yaml:4:20: jobs.c.tty: want true or false, got a string`,
	}, problems(t, `jobs:
  a: {cmd: x, stdin: tty}
  b: {cmd: x, tty: true, stdin: pipe}
  c: {cmd: x, tty: yes please}
`))
}

func TestProcessComposeTTY(t *testing.T) {
	inDir(t, nil)
	plan, err := Parse("process-compose.yaml", []byte(`processes:
  shell: {command: bash, is_interactive: true}
  colours: {command: ls --color=auto, is_tty: true}
  plain: {command: make}
`))
	require.NoError(t, err)
	assert.Empty(t, plan.Warnings)
	for _, j := range plan.Jobs {
		assert.Equal(t, j.Name != "plain", j.Spec.TTY, j.Name)
	}
}
