package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// What jobtop adds on top of ssh, each against ssh alone in the same run
// (alternately, medians of b.N rounds):
//
//	go test ./e2e/ -run '^$' -bench SSH -benchtime 5x
//
// BenchmarkSSHLs: `jobtop --host ssh://127.0.0.1 ls` against
// `ssh 127.0.0.1 true` (goal: at most 1.5x). BenchmarkSSHFollow: `jobtop
// --host ssh://127.0.0.1 logs --follow` of a job writing 64 MiB of
// 80-column lines as fast as it can, from its first byte to its end,
// against `ssh 127.0.0.1 'yes ... | head -c 64M'` carrying the same bytes
// (goal: at most 1.5x). A follower reads what the instance holds: when
// the job outruns it, it is told how many lines it missed (they are in
// the log file), so the benchmark also reports the bytes it got, the
// lines it missed, and its bytes per second against ssh's own
// (x-ssh-per-byte) and against the same follow of a local instance
// (x-local-per-byte: what ssh adds to the follow path).

// sshTimed runs ssh to the test's sshd with a remote command and returns
// how long it took, with what it wrote counted (not kept).
func sshTimed(b *testing.B, h *sshHost, command string) (time.Duration, int64) {
	b.Helper()
	var n countingWriter
	cmd := exec.Command(filepath.Join(h.dir, "bin", "ssh"), "127.0.0.1", command) // the test's ssh, as on its PATH
	cmd.Env = append(os.Environ(), h.env...)
	cmd.Stdout = &n
	start := time.Now()
	require.NoError(b, cmd.Run())
	return time.Since(start), n.n.Load()
}

type countingWriter struct{ n atomic.Int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n.Add(int64(len(p)))
	return len(p), nil
}

func BenchmarkSSHLs(b *testing.B) {
	bin := binary(b)
	h := startSSHD(b)
	h.installJobtop(b, bin)
	r := newRemote(b, bin, h)
	r.flags = []string{"--host", "ssh://127.0.0.1"} // the port is in the test's ssh config
	r.shutdownOnCleanup()
	r.ok("ls") // starts the far instance
	var base, ls []time.Duration
	for i := 0; i < b.N; i++ {
		d, _ := sshTimed(b, h, "true")
		base = append(base, d)
		start := time.Now()
		r.ok("ls")
		ls = append(ls, time.Since(start))
	}
	mb, ml := median(base), median(ls)
	b.ReportMetric(float64(ml)/float64(mb), "x-ssh")
	b.ReportMetric(float64(ml.Microseconds())/1000, "ms-ls")
	b.ReportMetric(float64(mb.Microseconds())/1000, "ms-ssh")
	b.Logf("ssh 127.0.0.1 true: median %v %v", mb, base)
	b.Logf("jobtop --host ssh://127.0.0.1 ls: median %v %v", ml, ls)
}

// droppedRE reads the follower's note about lines it never got.
var droppedRE = regexp.MustCompile(`jobtop: (\d+) lines? (?:are|is) no longer held`)

// followRound is one round of a follow benchmark: a job that says "go",
// waits for a fifo, then writes firehose; logs --follow is started and
// timed, and the job released once the follower has seen "go" (so the
// follower is connected when the bytes start). It returns the follower's
// time, the bytes it printed after "go", and the lines it was told were
// dropped.
func followRound(b *testing.B, bin string, flags, env []string, firehose string) (time.Duration, int64, int64) {
	b.Helper()
	cli := func(args ...string) string {
		cmd := exec.Command(bin, append(append([]string{}, flags...), args...)...)
		cmd.Env = env
		out, err := cmd.Output()
		require.NoError(b, err, "jobtop %v", args)
		return string(out)
	}
	fifo := filepath.Join(b.TempDir(), "fifo")
	require.NoError(b, syscall.Mkfifo(fifo, 0o600))
	id := strings.TrimSpace(cli("run", "--", "echo go; read _ < "+fifo+"; "+firehose))
	defer cli("rm", id)
	cmd := exec.Command(bin, append(append([]string{}, flags...), "logs", "--follow", id)...)
	cmd.Env = env
	out, err := cmd.StdoutPipe()
	require.NoError(b, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	require.NoError(b, cmd.Start())
	first := make([]byte, 3)
	_, err = io.ReadFull(out, first)
	require.NoError(b, err)
	require.Equal(b, "go\n", string(first))
	writeFifoE2E(b, fifo)
	n, err := io.Copy(io.Discard, out)
	require.NoError(b, err)
	require.NoError(b, cmd.Wait(), stderr.String())
	took := time.Since(start)
	var dropped int64
	for _, m := range droppedRE.FindAllStringSubmatch(stderr.String(), -1) {
		v, _ := strconv.ParseInt(m[1], 10, 64)
		dropped += v
	}
	return took, n, dropped
}

func BenchmarkSSHFollow(b *testing.B) {
	bin := binary(b)
	h := startSSHD(b)
	h.installJobtop(b, bin)
	r := newRemote(b, bin, h)
	r.flags = []string{"--host", "ssh://127.0.0.1"}
	r.shutdownOnCleanup()
	r.ok("ls")
	remoteEnv := append(append(os.Environ(), r.env...), h.env...)
	local := startServe(b, bin)
	firehose := fmt.Sprintf("yes '%s' | head -c 64M", line80)
	var base, follow, near []time.Duration
	var got, dropped, gotNear, droppedNear int64
	for i := 0; i < b.N; i++ {
		d, n := sshTimed(b, h, firehose)
		require.EqualValues(b, 64<<20, n)
		base = append(base, d)

		d, n, drop := followRound(b, bin, r.flags, remoteEnv, firehose)
		follow, got, dropped = append(follow, d), got+n, dropped+drop

		d, n, drop = followRound(b, bin, nil, local.env, firehose)
		near, gotNear, droppedNear = append(near, d), gotNear+n, droppedNear+drop
	}
	mb, mf, ml := median(base), median(follow), median(near)
	gotMiB, nearMiB := float64(got)/float64(b.N)/(1<<20), float64(gotNear)/float64(b.N)/(1<<20)
	b.ReportMetric(float64(mf)/float64(mb), "x-ssh")
	b.ReportMetric(gotMiB, "MiB-followed/op")
	b.ReportMetric(float64(dropped)/float64(b.N), "lines-dropped/op")
	// Per byte received: how much slower the follower's bytes came than
	// ssh's own, and than a follower of a local instance.
	b.ReportMetric((64/mb.Seconds())/(gotMiB/mf.Seconds()), "x-ssh-per-byte")
	b.ReportMetric((nearMiB/ml.Seconds())/(gotMiB/mf.Seconds()), "x-local-per-byte")
	b.Logf("ssh 127.0.0.1 '%s': median %v %v", firehose, mb, base)
	b.Logf("jobtop --host ssh://127.0.0.1 logs --follow: median %v %v; %.1f MiB and %d dropped lines a round", mf, follow,
		gotMiB, dropped/int64(b.N))
	b.Logf("jobtop logs --follow (local instance, no ssh): median %v %v; %.1f MiB and %d dropped lines a round", ml, near,
		nearMiB, droppedNear/int64(b.N))
}

func writeFifoE2E(b *testing.B, path string) {
	b.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	require.NoError(b, err)
	_, err = f.WriteString("go\n")
	require.NoError(b, err)
	require.NoError(b, f.Close())
}
