package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// rssBound is the README's promise for an instance holding text bytes of
// output: 1.5 times that, plus 30 MB.
func rssBound(text int64) int64 { return text*3/2 + 30_000_000 }

// procKB reads a field of /proc/PID/status, in bytes.
func procKB(t testing.TB, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// resetPeakRSS starts VmHWM over from the current RSS.
func resetPeakRSS(t testing.TB, pid int) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join("/proc", strconv.Itoa(pid), "clear_refs"), []byte("5"), 0))
}

// fillJobs starts n jobs through the API, each running command, and
// waits until all have ended; it returns the text their stores hold.
func fillJobs(t testing.TB, c *control.Client, n int, command string) (text int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var ids []jobs.ID
	for i := 0; i < n; i++ {
		info, err := c.StartJob(ctx, control.StartRequest{Command: command, Cwd: "/"})
		require.NoError(t, err)
		ids = append(ids, info.ID)
	}
	for _, id := range ids {
		resp, err := c.WaitJob(ctx, id, 0)
		require.NoError(t, err)
		require.Equal(t, jobs.StateSucceeded, resp.Job.State)
		retained := resp.Job.Lines - resp.Job.Dropped
		text += int64(retained) * int64(len(line80))
	}
	return text
}

// line80Job writes n 80-column lines (line80 and a newline... 81 bytes a
// line), or bytes of them when bytes > 0.
func line80Job(lines int, bytes string) string {
	if bytes != "" {
		return fmt.Sprintf("yes '%s' | head -c %s", line80, bytes)
	}
	return fmt.Sprintf("yes '%s' | head -n %d", line80, lines)
}

// Sixteen clients reading 100 full jobs at once, each the largest answers
// there are (10,000 lines; eight through GET /v1/output, eight through
// jobs' own output), keep serve's RSS within its bound: answers are
// copied a batch at a time and encoded as they go.
func TestSixteenReadersKeepServeRSSBounded(t *testing.T) {
	bin := binary(t)
	in := startServe(t, bin)
	c := control.NewClient(in.socket)
	defer c.Close()
	text := fillJobs(t, c, 100, line80Job(jobs.DefaultMaxLines, ""))
	require.Equal(t, int64(100*jobs.DefaultMaxLines*len(line80)), text, "every job holds its 10,000 lines")
	pid := in.cmd.Process.Pid
	time.Sleep(2 * time.Second) // let the memory limit follow the stores (it is updated every second)
	resetPeakRSS(t, pid)

	raw := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", in.socket)
	}}}
	get := func(path string) (body []byte) {
		resp, err := raw.Get("http://jobtop" + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		body, err = io.ReadAll(resp.Body)
		require.NoError(t, err)
		return body
	}
	const reads = 4 // answers per client
	var wg sync.WaitGroup
	var mu sync.Mutex
	read := make([]int, 16)
	for r := 0; r < 16; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Spread over the stream: each all-jobs reader starts where
			// another job's lines begin.
			var cursor uint64
			if r%2 == 0 {
				var first control.OutputResponse
				require.NoError(t, json.Unmarshal(get(fmt.Sprintf("/v1/jobs/%d/output?max=1", 1+r*5)), &first))
				cursor = first.Lines[0].Arrival - 1
			}
			for k := 0; k < reads; k++ {
				n := 0
				if r%2 == 0 {
					var page control.AllOutputResponse
					require.NoError(t, json.Unmarshal(get(fmt.Sprintf("/v1/output?max=10000&cursor=%d", cursor)), &page))
					require.True(t, page.More)
					cursor = page.NextCursor
					n = len(page.Lines)
				} else {
					var page control.OutputResponse
					require.NoError(t, json.Unmarshal(get(fmt.Sprintf("/v1/jobs/%d/output?max=10000", 1+(r*reads+k)%100)), &page))
					n = len(page.Lines)
				}
				mu.Lock()
				read[r] += n
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for r, n := range read {
		require.Equal(t, reads*jobs.DefaultMaxLines, n, "reader %d got full answers", r)
	}
	peak := procKB(t, pid, "VmHWM")
	t.Logf("serve peak RSS while 16 clients read: %.1f MB; text held %.1f MB; bound %.1f MB (%.2f of it)",
		float64(peak)/1e6, float64(text)/1e6, float64(rssBound(text))/1e6, float64(peak)/float64(rssBound(text)))
	require.LessOrEqual(t, peak, rssBound(text))
}

// BenchmarkServeRSS100Jobs runs 100 jobs that each write 8 MiB of
// 80-column lines in one serve, waits until all have ended, and reports
// serve's RSS then (rss-MB), the text its stores hold (text-MB) and the
// RSS as a share of the README's bound, 1.5x text + 30 MB (x-bound,
// target <= 1); and the peak RSS while the jobs ran (peak-MB).
//
//	go test ./e2e/ -run '^$' -bench ServeRSS100Jobs -benchtime 1x
func BenchmarkServeRSS100Jobs(b *testing.B) {
	bin := binary(b)
	for b.Loop() {
		in := startServe(b, bin)
		c := control.NewClient(in.socket)
		text := fillJobs(b, c, 100, line80Job(0, "8M"))
		c.Close()
		pid := in.cmd.Process.Pid
		time.Sleep(3 * time.Second) // the memory limit follows the stores every second
		rss := procKB(b, pid, "VmRSS")
		b.ReportMetric(float64(rss)/1e6, "rss-MB")
		b.ReportMetric(float64(text)/1e6, "text-MB")
		b.ReportMetric(float64(rss)/float64(rssBound(text)), "x-bound")
		b.ReportMetric(float64(procKB(b, pid, "VmHWM"))/1e6, "peak-MB")
	}
}
