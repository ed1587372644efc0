package keeper

import (
	"encoding/binary"
	"net"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWireCodecRoundTrips(t *testing.T) {
	reqs := []request{
		{Op: opSpawn, Run: 1<<63 + 5, Path: "/bin/sh", Argv: []string{"sh", "", "-c", "echo ü\x00"},
			Env: []string{"A=1", "", "B=" + string(make([]byte, 70000))}, Dir: "/tmp", TTY: true,
			StopSignal: 15, GraceMS: 1 << 40, Hold: 2, Log: "/x/1.log"},
		{Op: opSignal, Runs: []RunID{1, 0, 300}, Signal: 9},
		{Op: opSignal, Runs: []RunID{4}, Signal: 2, Stop: true},
		{Op: opSpawn, GraceMS: -3},
	}
	for _, want := range reqs {
		b, err := marshal(want)
		require.NoError(t, err)
		var got request
		require.NoError(t, unmarshal(b, &got))
		assert.Equal(t, want, got)
	}
	evs := []event{
		{Ev: evHello, PID: 7, Start: 1 << 60, Token: "ab12", Err: "cannot", Cgroup: "/sys/fs/cgroup/jobtop-ab12"},
		{Ev: evSpawned, Run: 9, PID: 12, Start: 3, Note: "this run has no cgroup of its own"},
		{Ev: evExit, Run: 3, Status: -1, Left: 2, At: -5},
		{Ev: evEmpty, Run: 3, At: 1_700_000_000_000_000_000},
	}
	for _, want := range evs {
		b, err := marshal(&want)
		require.NoError(t, err)
		var got event
		require.NoError(t, unmarshal(b, &got))
		assert.Equal(t, want, got)
	}
}

// A field this side does not know (one a later jobtop added) is skipped,
// whatever its kind.
func TestWireCodecSkipsUnknownFields(t *testing.T) {
	var e encoder
	e.str(evfEv, evSpawned)
	e.uint(99, 12345)
	e.str(100, "news")
	e.uint(evfRun, 4)
	var got event
	require.NoError(t, unmarshal(e.b, &got))
	assert.Equal(t, event{Ev: evSpawned, Run: 4}, got)
}

// A message cut short, or with a number that never ends, is an error,
// never a panic or a field read past its end.
func TestWireCodecRefusesBrokenMessages(t *testing.T) {
	// A message cut between two fields reads what came whole; one cut
	// inside a field is refused.
	var e encoder
	var whole []int
	e.str(reqOp, opSpawn)
	whole = append(whole, len(e.b))
	e.uint(reqRun, 300)
	whole = append(whole, len(e.b))
	e.str(reqPath, "/bin/true")
	whole = append(whole, len(e.b))
	e.strs(reqEnv, []string{"A=1"})
	whole = append(whole, len(e.b))
	for n := 1; n <= len(e.b); n++ {
		var r request
		err := unmarshal(e.b[:n], &r)
		if slices.Contains(whole, n) {
			assert.NoError(t, err, "cut at %d, between fields", n)
		} else {
			assert.Error(t, err, "cut at %d, inside a field", n)
		}
	}
	var r request
	for name, b := range map[string][]byte{
		"a number past 64 bits":    {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80},
		"a 10th byte past bit 63":  {reqRun << 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
		"a string cut short":       {reqPath<<1 | kindBytes, 9, 'a'},
		"no operation":             {},
		"an operation as a number": {reqOp << 1, 1},
		"a run as a string":        {reqOp<<1 | kindBytes, 1, 's', reqRun<<1 | kindBytes, 1, 'x'},
	} {
		assert.Error(t, unmarshal(b, &r), name)
	}
	var ev event
	assert.Error(t, unmarshal(nil, &ev), "an event of no kind")
}

// TestWireCodecSkipsUnknownFieldsOnEveryArch: a field numbered past 32
// bits is unknown, and skipped, on 32-bit systems too (cut to 32 bits it
// would read as a known one); a number past an int is refused, not cut.
func TestWireCodecSkipsUnknownFieldsOnEveryArch(t *testing.T) {
	tag := binary.AppendUvarint([]byte{reqOp<<1 | kindBytes, 1, 's'}, (1<<32+reqSignal)<<1)
	var r request
	require.NoError(t, unmarshal(binary.AppendUvarint(tag, 18), &r))
	assert.Zero(t, r.Signal, "field 2^32+%d read as field %d", reqSignal, reqSignal)

	big := binary.AppendUvarint([]byte{reqOp<<1 | kindBytes, 1, 's', reqSignal << 1}, uint64(1<<33+9)<<1)
	err := unmarshal(big, &r)
	if strconv.IntSize == 32 {
		assert.Error(t, err, "a signal past 32 bits")
	} else {
		assert.NoError(t, err)
		assert.Equal(t, int64(1<<33+9), int64(r.Signal))
	}
}

// TestWireAllocatesLittle: sending and reading a spawn request (on the
// path of every start) allocates a few times, not once or more per
// variable of the job's environment, as JSON did (about 60 times here).
func TestWireAllocatesLittle(t *testing.T) {
	mine, other := connPair(t)
	env := make([]string, 40)
	for i := range env {
		env[i] = "VARIABLE_" + string(rune('A'+i%26)) + "=/some/value/that/is/typical:/of/a/path"
	}
	req := request{Op: opSpawn, Run: 12, Path: "/usr/bin/sleep", Argv: []string{"sleep", "300"}, Env: env,
		StopSignal: 15, GraceMS: 5000, Hold: 2, Log: "/state/jobtop/logs/default/12.log"}
	r := newReceiver(other)
	allocs := testing.AllocsPerRun(100, func() {
		require.NoError(t, send(mine, req))
		var got request
		fds, err := r.receive(&got)
		require.NoError(t, err)
		require.Empty(t, fds)
		require.Len(t, got.Env, len(env))
	})
	assert.LessOrEqual(t, allocs, 20.0, "allocations to send and receive a spawn request with %d variables", len(env))
}

// connPair is a connected pair of the keeper's sockets, both ends as
// connections, closed when the test ends.
func connPair(t *testing.T) (mine, other *net.UnixConn) {
	t.Helper()
	mine, theirs, err := socketPair()
	require.NoError(t, err)
	t.Cleanup(func() { mine.Close() })
	defer theirs.Close() // FileConn holds a copy
	c, err := net.FileConn(theirs)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return mine, c.(*net.UnixConn)
}
