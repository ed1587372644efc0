package control

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/jobs/proc"
)

// soakJobs are what the soak runs, round robin: a firehose, \r progress
// bars, a daemonising script, a crashing job restarted with backoff, a
// job that ignores SIGTERM, and a quiet sleeper.
var soakJobs = []StartRequest{
	{Command: "yes 'firehose 0123456789 abcdefghijklmnopqrstuvwxyz' | head -c 8M"},
	{Command: `i=0; while [ $i -lt 2000 ]; do printf '\r[%-20s] %d' "$(printf '#%.0s' $(seq $((i % 20 + 1))))" $i; i=$((i+1)); done; echo`},
	{Command: "setsid sleep 600 & (sleep 600 &); echo daemonised; sleep 1"},
	{Command: "echo crash; exit 3", Restart: &RestartRequest{Mode: "always", Backoff: "100ms", MaxBackoff: "400ms", Max: new(int)}}, // 0: no limit
	{Command: "trap '' TERM; echo stubborn; sleep 600 & wait", Grace: "300ms"},
	{Command: "exec sleep 600"},
}

// TestSoak runs 100 jobs of every kind for a while (JOBTOP_SOAK, e.g.
// "60s"; CI runs it briefly) while 4 API clients stop, kill, restart,
// start and read them at random. At the end nothing any job started is
// left, and goroutines and open files are back where they began.
func TestSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("JOBTOP_SOAK"))
	if err != nil {
		t.Skip("set JOBTOP_SOAK to a duration (e.g. 60s) to run the soak test")
	}
	goroutines0, fds0 := runtime.NumGoroutine(), openFDs()
	mark := fmt.Sprintf("soak-%d-%d", os.Getpid(), time.Now().UnixNano())
	in := startInstance(t)
	ctx := ctxT(t)
	var ids []jobs.ID
	for i := range 100 {
		req := soakJobs[i%len(soakJobs)]
		req.Name = fmt.Sprintf("soak%d", i)
		req.Env = map[string]string{"TEST_MARK": mark}
		info, err := in.client.StartJob(ctx, req)
		require.NoError(t, err)
		ids = append(ids, info.ID)
	}

	var wg sync.WaitGroup
	end := time.Now().Add(d)
	for c := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := NewClient(in.socket)
			defer client.Close()
			r := rand.New(rand.NewPCG(uint64(c), 42))
			for time.Now().Before(end) {
				id := ids[r.IntN(len(ids))]
				ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
				var err error
				switch op := r.IntN(6); op {
				case 0:
					_, err = client.StopJob(ctx, id, false)
				case 1:
					_, err = client.KillJob(ctx, id, false)
				case 2:
					_, err = client.RestartJob(ctx, id, false)
				case 3:
					_, err = client.ReadOutput(ctx, id, OutputQuery{Tail: 50})
				case 4:
					_, err = client.Jobs(ctx)
				case 5:
					_, err = client.ReadOutput(ctx, id, OutputQuery{Cursor: uint64(r.IntN(1000))})
				}
				cancel()
				// A conflict (the job is in a state the action does not
				// apply to) and a random cursor past a job's newest line
				// are answers, not failures.
				var api *APIError
				refused := errors.As(err, &api) && (api.Status == 409 || api.Status == 400 && strings.Contains(api.Error(), "is past job"))
				if err != nil && !refused {
					t.Errorf("client %d: %v", c, err)
					return
				}
				time.Sleep(time.Duration(r.IntN(20)) * time.Millisecond)
			}
		}()
	}
	wg.Wait()

	in.server.Close()
	in.client.Close()
	shutdown, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	require.NoError(t, in.mgr.Shutdown(shutdown))
	require.Eventually(t, func() bool { return len(markedProcs(mark)) == 0 }, testTimeout, 20*time.Millisecond,
		"left running: %v", markedProcs(mark))
	// Polled here, not with require.Eventually: that runs its condition
	// on a goroutine of its own.
	for deadline := time.Now().Add(testTimeout); runtime.NumGoroutine() > goroutines0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("goroutines: %d at the start, %d now", goroutines0, runtime.NumGoroutine())
		}
	}
	assert.LessOrEqual(t, openFDs(), fds0, "open files")
	t.Logf("soak of %v: 100 jobs, 4 clients; goroutines %d -> %d, fds %d -> %d", d, goroutines0, runtime.NumGoroutine(), fds0, openFDs())
}

func openFDs() int {
	entries, _ := os.ReadDir("/proc/self/fd")
	return len(entries)
}

// markedProcs lists live processes with TEST_MARK=mark in their
// environment.
func markedProcs(mark string) []string {
	procs, _ := proc.List()
	var out []string
	for _, p := range procs {
		if v, ok := proc.Env(p.PID, "TEST_MARK"); ok && v == mark && !p.Zombie {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.PID))
			out = append(out, fmt.Sprintf("%d %s", p.PID, strings.ReplaceAll(string(b), "\x00", " ")))
		}
	}
	return out
}
