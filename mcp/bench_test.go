package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// storeJob starts a job that writes n lines of 60 bytes into a store that
// holds them all, and waits for its end.
func storeJob(tb testing.TB, n int) (*sdk.ClientSession, jobs.ID) {
	tb.Helper()
	mgr, api := newInstance(tb, jobs.StoreOptions{MaxLines: max(n, 100), MaxBytes: 1 << 30})
	info, err := mgr.Start(jobs.Spec{Command: fmt.Sprintf(`seq -f '%%059g' 1 %d`, n)})
	require.NoError(tb, err)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	info, err = mgr.Wait(ctx, info.ID)
	require.NoError(tb, err)
	require.Equal(tb, uint64(n), info.Lines)
	cs, _ := connect(tb, New(Options{Client: api}), "bench")
	return cs, info.ID
}

// readMiddle calls read_output from the middle of the job's output and
// checks the answer keeps the default caps.
func readMiddle(tb testing.TB, cs *sdk.ClientSession, id jobs.ID, cursor int) {
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "read_output", Arguments: map[string]any{"id": int(id), "cursor": cursor}})
	if err != nil || res.IsError {
		tb.Fatalf("read_output: %v %v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var r ReadOutputResult
	if err := json.Unmarshal(b, &r); err != nil {
		tb.Fatal(err)
	}
	if len(r.Lines) > DefaultMaxLines || textBytes(r.Lines) > DefaultMaxBytes || !r.More {
		tb.Fatalf("read_output broke its caps: %d lines, %d bytes, more %v", len(r.Lines), textBytes(r.Lines), r.More)
	}
}

// One read_output call on a job holding 10,000 lines stays within the
// caps (200 lines, 16 KiB), and costs what the same call costs on a job
// holding 1,000 lines: "ratio" is the 10,000-line read's time over the
// 1,000-line read's, measured in the same run (about 1 means the store's
// size does not matter).
//
//	go test ./mcp/ -run '^$' -bench ReadOutputStoreSize -benchtime 200x
func BenchmarkReadOutputStoreSize(b *testing.B) {
	small, smallID := storeJob(b, 1_000)
	big, bigID := storeJob(b, 10_000)
	var smallTime, bigTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		readMiddle(b, small, smallID, 500)
		t1 := time.Now()
		readMiddle(b, big, bigID, 5_000)
		bigTime += time.Since(t1)
		smallTime += t1.Sub(t0)
	}
	b.ReportMetric(float64(smallTime.Microseconds())/float64(b.N), "µs/read-1k")
	b.ReportMetric(float64(bigTime.Microseconds())/float64(b.N), "µs/read-10k")
	b.ReportMetric(float64(bigTime)/float64(smallTime), "ratio")
}

// The benchmark's caps hold in a normal test run too.
func TestReadOutputOn10000LinesKeepsTheCaps(t *testing.T) {
	cs, id := storeJob(t, 10_000)
	readMiddle(t, cs, id, 5_000)
	readMiddle(t, cs, id, 0)
}
