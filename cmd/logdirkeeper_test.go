package cmd

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestANewInstanceWaitsForTheKeeperDrainingIntoItsLogDir: serve with a
// fixed log.dir is SIGKILLed; its keeper stops the job, which goes on
// writing as it stops, into the old run's log. A new instance on another
// socket in the same directory waits for that keeper, saying so, before
// it starts fresh there: none of the old run's output lands in the new
// job 1's log.
func TestANewInstanceWaitsForTheKeeperDrainingIntoItsLogDir(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	fifo := mkfifo(t)
	file := filepath.Join(dir, "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte(fmt.Sprintf(`log: {dir: ./logs}
jobs:
  old:
    cmd: "trap 'echo OLD-after-term 1; read x < %s; echo OLD-after-term 2; exit 0' TERM; echo OLD-up; while :; do sleep 0.05; done"
`, fifo)), 0o600))
	first := c.serveIn(dir)
	log := filepath.Join(dir, "logs", "1.log")
	logHas := func(text string) func() bool {
		return func() bool {
			b, _ := os.ReadFile(log)
			return strings.Contains(string(b), text)
		}
	}
	require.Eventually(t, logHas("OLD-up\n"), testTimeout, 10*time.Millisecond)
	keeper := keeperOf(t, first.Process.Pid)
	t.Cleanup(func() { syscall.Kill(keeper, syscall.SIGKILL) }) //nolint:errcheck // should be gone
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	first.Wait() //nolint:errcheck // killed on purpose
	require.Eventually(t, logHas("OLD-after-term 1\n"), testTimeout, 10*time.Millisecond,
		"the keeper drains the stopping run's output into its log")

	require.NoError(t, os.WriteFile(file, []byte("log: {dir: ./logs}\njobs:\n  new: {cmd: 'echo NEW-up; exec sleep 600'}\n"), 0o600))
	next := newCLI(t) // another socket
	serve := exec.Command(binary, "serve")
	serve.Dir = dir
	stderr := bufio.NewReader(next.startServe(serve))
	line, err := stderr.ReadString('\n')
	require.NoError(t, err)
	assert.Contains(t, line, "waiting for the keeper of a jobtop that died", "the new instance says what it waits for")
	go io.Copy(io.Discard, stderr) //nolint:errcheck // the rest is of no interest

	writeFifo(t, fifo, "go\n") // the old run ends
	require.Eventually(t, func() bool { return !processAlive(keeper) }, testTimeout, 10*time.Millisecond, "the old keeper exits")
	next.waitAnswering()
	require.Eventually(t, logHas("NEW-up\n"), testTimeout, 10*time.Millisecond)
	b, err := os.ReadFile(log)
	require.NoError(t, err)
	assert.Regexp(t, `^\[jobtop\] ── run 1 · started \S+ ──\nNEW-up\n$`, string(b), "job 1's log holds the new job's output only")
}
