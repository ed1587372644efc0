package control

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fastjson "github.com/segmentio/encoding/json"

	"jobtop/jobs"
)

// BenchmarkListJobs1000 is what a client of GET /v1/jobs waits for with
// 1,000 running jobs: the list over the socket and its answer decoded
// (the bound: 20 ms, and for `jobtop ls` with the process start).
// The x- parts add up to it: the answer read raw (and with the fields
// `jobtop ls` asks for alone), the manager's snapshot, its encoding and
// decoding; encoding/json encoding and decoding it, the baselines of the
// server's hand-written encoding and of the client's JSON library.
func BenchmarkListJobs1000(b *testing.B) {
	in := startInstance(b)
	ctx := context.Background()
	for i := range 1000 {
		if _, err := in.client.StartJob(ctx, StartRequest{Command: "exec sleep 300", Name: fmt.Sprintf("job%04d", i)}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("decoded", func(b *testing.B) {
		for b.Loop() {
			list, err := in.client.Jobs(ctx)
			if err != nil || len(list) != 1000 {
				b.Fatal(len(list), err)
			}
		}
	})
	b.Run("x-raw", func(b *testing.B) {
		for b.Loop() {
			body, err := in.client.open(ctx, http.MethodGet, "/v1/jobs", nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			n, _ := io.Copy(io.Discard, body)
			body.Close()
			b.SetBytes(n)
		}
	})
	lsFields := JobFilter{Fields: strings.Split("id,name,command,state,pid,exit_code,signal,started_at,ended_at,kill_at,restart_at", ",")}
	b.Run("x-raw-ls-fields", func(b *testing.B) {
		for b.Loop() {
			body, err := in.client.open(ctx, http.MethodGet, "/v1/jobs", lsFields.query(), nil)
			if err != nil {
				b.Fatal(err)
			}
			n, _ := io.Copy(io.Discard, body)
			body.Close()
			b.SetBytes(n)
		}
	})
	b.Run("x-list", func(b *testing.B) {
		for b.Loop() {
			if len(in.mgr.List()) != 1000 {
				b.Fatal("not 1,000")
			}
		}
	})
	list := in.mgr.List()
	data := encodeJSON(list)
	b.Run("x-encode", func(b *testing.B) {
		for b.Loop() {
			b.SetBytes(int64(len(encodeJobList(list, jobFields[:]))))
		}
	})
	b.Run("x-encode-stdlib", func(b *testing.B) {
		for b.Loop() {
			b.SetBytes(int64(len(encodeJSON(list))))
		}
	})
	b.Run("x-decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var l []jobs.Info
			if err := fastjson.Unmarshal(data, &l); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("x-decode-stdlib", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var l []jobs.Info
			if err := json.Unmarshal(data, &l); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestFastJSONMatchesEncodingJSON: the client reads the job list as
// encoding/json reads it, invalid UTF-8 and HTML characters included.
func TestFastJSONMatchesEncodingJSON(t *testing.T) {
	in := startInstance(t)
	in.startJob(t, "printf 'a<b>&\\377\\n'; exec sleep 60")
	in.startJob(t, "true")
	require.Eventually(t, func() bool {
		list := in.mgr.List()
		return list[0].Lines == 1 && list[1].State.Ended()
	}, testTimeout, 10*time.Millisecond)
	got, err := in.client.Jobs(ctxT(t))
	require.NoError(t, err)
	var want []jobs.Info
	require.NoError(t, json.Unmarshal(encodeJSON(in.mgr.List()), &want))
	for i := range want { // sampled between the two reads
		want[i].Usage, got[i].Usage = jobs.Usage{}, jobs.Usage{}
	}
	assert.Equal(t, want, got)
	assert.Contains(t, got[0].LastLine, "a<b>&\ufffd")
}
