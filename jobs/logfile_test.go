package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openLogFile is openLogFileSoon, waiting for the file.
func openLogFile(path string, cap int64) (*logFile, error) {
	l := openLogFileSoon(path, cap)
	<-l.opened
	if l.noFile.Load() {
		return nil, l.err
	}
	return l, nil
}

// rotationMarker matches the line a rotated log begins with.
var rotationMarker = regexp.MustCompile(`^\[jobtop\] log rotated at [^\n]*: the output before this line is in [^\n]*\n`)

// readLog reads a job's log files, oldest first, each without the
// rotation marker it begins with, and requires each to be within cap.
func readLog(t *testing.T, files []string, cap int64) string {
	t.Helper()
	var b strings.Builder
	for i, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		require.LessOrEqual(t, int64(len(data)), cap, "%s is within the cap", f)
		text := string(data)
		if i > 0 {
			require.Regexp(t, rotationMarker, text, "%s begins with the rotation marker", f)
		}
		b.WriteString(rotationMarker.ReplaceAllString(text, ""))
	}
	return b.String()
}

func seqOutput(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

// At its cap the log rotates: the newest output is kept in <id>.log, the
// output before it in <id>.log.1, each within the cap, and rotation
// happens between lines.
func TestLogRotatesKeepingTheNewestOutput(t *testing.T) {
	m := newManager(t, Options{LogCap: MinLogCap})
	info := wait(t, m, start(t, m, Spec{Command: "seq 1 100000"}).ID)
	require.Equal(t, []string{info.LogPath + ".1", info.LogPath}, info.LogFiles)
	got := readLog(t, info.LogFiles, MinLogCap)
	assert.True(t, strings.HasSuffix(got, seqOutput(99800, 100000)), "the newest output is kept")
	_, body, _ := strings.Cut(got, "\n") // .1 may begin with the run separator or mid-run
	assert.True(t, strings.HasSuffix(seqOutput(1, 100000), body), "what is kept is the end of the output, every byte in order")
	assert.Greater(t, len(got), MinLogCap, "two files' worth is kept")
	current, err := os.ReadFile(info.LogPath)
	require.NoError(t, err)
	assert.Regexp(t, `^\[jobtop\] log rotated at \S+ \(it reached 4 KiB\): the output before this line is in 1.log.1; older output is gone\n[0-9]+\n`, string(current),
		"the marker is a line of its own, and lines are whole")
	assert.Zero(t, info.LogDropped)
	matches, _ := filepath.Glob(info.LogPath + "*")
	assert.Len(t, matches, 2, "at most two files per job")
	assert.Equal(t, uint64(100000), info.Lines, "memory still gets every line")
}

// Each run begins with a separator line that gives its number and time;
// runs past the cap keep rotating, never failing.
func TestLogRunSeparators(t *testing.T) {
	m := newManager(t, Options{LogCap: MinLogCap})
	id := start(t, m, Spec{Command: "printf 'no newline'"}).ID
	wait(t, m, id)
	_, err := m.Restart(id)
	require.NoError(t, err)
	wait(t, m, id)
	b, err := os.ReadFile(filepath.Join(m.LogDir(), "1.log"))
	require.NoError(t, err)
	assert.Regexp(t, `^\[jobtop\] ── run 1 · started \S+ ──\nno newline\n\[jobtop\] ── run 2 · started \S+ ──\nno newline$`, string(b))

	// A restart past the cap rotates.
	_, err = m.Restart(id)
	require.NoError(t, err)
	info := wait(t, m, id)
	for run := 4; run <= 40; run++ {
		_, err := m.Replace(id, Spec{Command: "seq 1 300"})
		require.NoError(t, err)
		_, err = m.Restart(id)
		require.NoError(t, err)
		info = wait(t, m, id)
	}
	require.Equal(t, StateSucceeded, info.State)
	got := readLog(t, info.LogFiles, MinLogCap)
	assert.Regexp(t, `\[jobtop\] ── run 40 · started \S+ ──\n`+regexp.QuoteMeta(seqOutput(1, 300))+`$`, got)
}

// A fixed log directory that an earlier session used starts fresh: its
// files are replaced, not appended to past a cap nobody counted, and a
// live instance's directory is refused.
func TestFixedLogDirStartsFresh(t *testing.T) {
	dir := t.TempDir()
	first, err := NewManager(Options{LogDir: dir, LogCap: 1 << 20, SampleInterval: -1})
	require.NoError(t, err)
	for i := 0; i < 3; i++ {
		wait(t, first, start(t, first, Spec{Command: "seq 1 50000"}).ID)
	}
	_, err = NewManager(Options{LogDir: dir})
	var inUse *LogDirInUseError
	require.True(t, errors.As(err, &inUse), "a live instance's log directory is refused: %v", err)
	assert.Contains(t, err.Error(), "give this instance a log.dir of its own")
	require.NoError(t, first.Shutdown(context.Background()))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o600))

	second := newManager(t, Options{LogDir: dir, LogCap: MinLogCap})
	info := wait(t, second, start(t, second, Spec{Command: "echo fresh"}).ID)
	b, err := os.ReadFile(info.LogPath)
	require.NoError(t, err)
	assert.Regexp(t, `^\[jobtop\] ── run 1 · started \S+ ──\nfresh\n$`, string(b), "job 1's log holds this session's output only")
	for _, gone := range []string{"2.log", "3.log"} {
		_, err := os.Stat(filepath.Join(dir, gone))
		assert.True(t, os.IsNotExist(err), "%s of the earlier session is gone", gone)
	}
	_, err = os.Stat(filepath.Join(dir, "notes.txt"))
	assert.NoError(t, err, "files that are not job logs are left alone")
}

// FuzzLogFile writes random sizes under random caps, with run separators
// and sessions starting again on the same file: the writer never panics,
// no file passes the cap, at most two files exist, and what they hold is
// the newest output, in order.
func FuzzLogFile(f *testing.F) {
	f.Add([]byte("a\nbb\nccc\n"), uint16(1), uint16(0), []byte{3, 200, 7, 0, 9})
	f.Add([]byte("no newlines at all, just bytes"), uint16(10), uint16(3), []byte{255, 255, 1})
	dir := f.TempDir() // one per fuzz worker; emptied for each input
	f.Fuzz(func(t *testing.T, data []byte, capK, sessions uint16, ops []byte) {
		path := filepath.Join(dir, "1.log")
		os.Remove(path)
		os.Remove(path + rotatedSuffix)
		cap := int64(capK%64)*512 + 1 // below the minimum, too
		var want []byte               // what the current session wrote
		var l *logFile
		open := func() {
			if l != nil {
				l.Close()
			}
			var err error
			l, err = openLogFile(path, cap)
			require.NoError(t, err)
			want = want[:0]
		}
		open()
		at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
		run := 0
		for i, op := range ops {
			switch {
			case op == 0 && sessions > 0:
				sessions--
				open()
			case op < 16:
				run++
				l.RunSeparator(run, at)
				sep := fmt.Sprintf("[jobtop] ── run %d · started %s ──\n", run, at.Format(time.RFC3339))
				if len(want) > 0 && want[len(want)-1] != '\n' {
					sep = "\n" + sep
				}
				want = append(want, sep...)
			default:
				n := min(int(op)*(i+1)*7, len(data))
				l.Write(data[:n])
				want = append(want, data[:n]...)
				data = data[n:]
			}
		}
		l.Close()
		matches, _ := filepath.Glob(filepath.Join(dir, "*"))
		require.LessOrEqual(t, len(matches), 2)
		files := l.Files()
		var got []byte
		for _, name := range files {
			b, err := os.ReadFile(name)
			require.NoError(t, err)
			require.LessOrEqual(t, int64(len(b)), max(cap, MinLogCap), "%s within the cap", name)
			if loc := rotationMarker.FindIndex(b); loc != nil && loc[0] == 0 {
				b = b[loc[1]:]
			}
			got = append(got, b...)
		}
		require.Zero(t, l.Dropped())
		// A marker that would not fit rotates early, dropping the
		// newline written before it: compare without that case's "\n".
		if !strings.HasSuffix(string(want), string(got)) {
			require.True(t, strings.HasSuffix(strings.ReplaceAll(string(want), "\n[jobtop] ──", "[jobtop] ──"), strings.ReplaceAll(string(got), "\n[jobtop] ──", "[jobtop] ──")),
				"the files hold the newest output: got %q, want a suffix of %q", got, want)
		}
	})
}

// TestAStuckLogWriteHoldsUpOnlyItsJob: a log write blocks for as long as
// the disk is behind (seconds, when a flood fills the page cache). Only
// that job's reader may wait for it: the list, the job's own snapshot,
// events, stopping it with its stop command (which marks the log) and
// every other job's input and output go on.
func TestAStuckLogWriteHoldsUpOnlyItsJob(t *testing.T) {
	m := newManager(t, Options{})
	stuck := start(t, m, Spec{Command: "echo $$ >pid; while :; do echo flood; done", Dir: t.TempDir(),
		StopCommand: "kill $(cat pid)", Grace: patience})
	other := start(t, m, Spec{Command: "exec cat", Stdin: StdinPipe})
	waitFor(t, m, stuck.ID, "the flood's output", func(i Info) bool { return i.Lines > 0 })
	m.mu.Lock()
	log := m.jobs[stuck.ID].log
	m.mu.Unlock()
	events := m.Subscribe()
	defer events.Close()

	log.mu.Lock() // the disk is behind: the job's next log write waits
	released := false
	release := func() {
		if !released {
			released = true
			log.mu.Unlock()
		}
	}
	defer release()
	answered := make(chan error, 1)
	go func() {
		m.List()
		if _, err := m.Get(stuck.ID); err != nil {
			answered <- err
			return
		}
		if err := m.Input(other.ID, []byte("still here\n")); err != nil {
			answered <- err
			return
		}
		answered <- m.Stop(stuck.ID)
	}()
	select {
	case err := <-answered:
		require.NoError(t, err)
	case <-time.After(patience):
		t.Fatal("the manager waited for a stuck log write")
	}
	waitFor(t, m, other.ID, "the other job's echo", func(Info) bool {
		return slices.Contains(outputText(t, m, other.ID), "still here")
	})
	eventually(t, "an event about the other job", func() bool {
		select {
		case batch := <-events.C():
			return slices.ContainsFunc(batch, func(ev Event) bool { return ev.Job.ID == other.ID })
		default:
			return false
		}
	})

	release()
	wait(t, m, stuck.ID)
	log.mu.Lock()
	defer log.mu.Unlock()
	b, err := os.ReadFile(log.path)
	require.NoError(t, err)
	assert.Contains(t, string(b), "[jobtop] ── stopping with: ", "the stop's marker, once the disk caught up")
}

// TestAStuckLogLosesNothingAtTheEnd: a run whose main process exited while
// its reader waited on a stuck log write is not cut off after the drain's
// timeout: what is still in its pipe is read once the disk catches up.
func TestAStuckLogLosesNothingAtTheEnd(t *testing.T) {
	for name, c := range map[string]struct {
		spec  Spec
		lines uint64
	}{
		// About 590 KB: within the pipe's 1 MiB.
		"pipes": {Spec{Command: "sleep 0.2; seq 1 100000"}, 100_000},
		// The reader is stuck writing what it read before the rest came,
		// with nothing new to read: within a terminal's buffer.
		"a terminal": {Spec{TTY: true, Command: "sleep 0.3; echo first; sleep 0.7; seq 1 1000"}, 1001},
	} {
		t.Run(name, func(t *testing.T) {
			m := newManager(t, Options{})
			info := start(t, m, c.spec)
			m.mu.Lock()
			j := m.jobs[info.ID]
			m.mu.Unlock()
			j.log.mu.Lock() // the disk is behind
			eventually(t, "the job's process to exit, its output unread", func() bool {
				m.mu.Lock()
				defer m.mu.Unlock()
				return j.proc != nil && j.proc.exited
			})
			time.Sleep(drainTimeout + time.Second) // past the drain's timeout, with no read progress
			j.log.mu.Unlock()
			info = wait(t, m, info.ID)
			assert.Equal(t, StateSucceeded, info.State)
			assert.Equal(t, c.lines, info.Lines, "every line, though the log was stuck past the drain's timeout")
		})
	}
}

// openFIFOs makes a new log open the FIFO a test put at its path, as a
// stand-in for a slow disk, where it would otherwise replace it.
func openFIFOs(t *testing.T) {
	t.Cleanup(func() { logTestHooks.Store(nil) })
	logTestHooks.Store(&logHooks{create: func(path string) (*os.File, error) {
		if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeNamedPipe != 0 {
			return openLog(path, os.O_WRONLY)
		}
		return createLogFile(path)
	}})
}

// The log file is made while the job's process starts, not before; Start
// still returns only once the file is there. A FIFO stands in for a slow
// disk: opening it waits for a reader.
func TestTheLogFileIsMadeWhileTheJobStarts(t *testing.T) {
	m := newManager(t, Options{})
	fifo := filepath.Join(m.LogDir(), "1.log")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	openFIFOs(t)
	mark := newMark(t)
	started := make(chan Info, 1)
	go func() {
		info, err := m.Start(Spec{Command: "exec sleep 300", Env: map[string]string{"TEST_MARK": mark}})
		assert.NoError(t, err)
		started <- info
	}()
	eventually(t, "the job's process runs while its log file is being opened", func() bool { return len(marked(mark)) == 1 })
	select {
	case <-started:
		t.Fatal("Start returned before the job's log file was open")
	case <-time.After(100 * time.Millisecond):
	}
	r, err := os.Open(fifo) // the open completes
	require.NoError(t, err)
	defer r.Close()
	go io.Copy(io.Discard, r) //nolint:errcheck // drains the log
	info := <-started
	assert.Equal(t, fifo, info.LogPath)
	assert.Equal(t, StateRunning, info.State)
	require.NoError(t, m.Kill(info.ID))
	wait(t, m, info.ID)

	added, err := m.Add(Spec{Command: "true"})
	require.NoError(t, err)
	_, err = os.Stat(added.LogPath)
	require.NoError(t, err, "the log file of an added job")
}

func TestAJobWhoseLogCannotBeMadeStillRuns(t *testing.T) {
	m := newManager(t, Options{})
	// The next job's rotated log is a directory that cannot be removed.
	require.NoError(t, os.MkdirAll(filepath.Join(m.LogDir(), "1.log.1", "x"), 0o700))
	info := start(t, m, Spec{Command: "echo hello"})
	assert.Empty(t, info.LogPath, "no log file")
	assert.Empty(t, info.LogFiles)
	info = wait(t, m, info.ID)
	assert.Equal(t, StateSucceeded, info.State)
	assert.Equal(t, []string{"hello"}, outputText(t, m, info.ID))
	assert.Positive(t, info.LogDropped, "what the log could not write is counted")
	assert.Contains(t, info.LogError, "1.log.1", "and why")
	assert.Empty(t, info.LogPath)

	// Once it can be, the next run makes it.
	require.NoError(t, os.RemoveAll(filepath.Join(m.LogDir(), "1.log.1")))
	lost := info.LogDropped
	_, err := m.Restart(info.ID)
	require.NoError(t, err)
	info = wait(t, m, info.ID)
	require.Equal(t, filepath.Join(m.LogDir(), "1.log"), info.LogPath)
	b, err := os.ReadFile(info.LogPath)
	require.NoError(t, err)
	assert.Regexp(t, fmt.Sprintf(`^\[jobtop\] %d bytes lost here \(directory not empty\)\n\[jobtop\] ── run 2 · started \S+ ──\nhello\n$`, lost), string(b))
	assert.Equal(t, lost, info.LogDropped)
}

// A log file that does not open (a FIFO no one reads, a hung network
// disk) holds up only that log: the job runs and is tracked, a kill ends
// it, a queued job can be killed, and the manager shuts down.
func TestALogThatDoesNotOpenHoldsNothingUp(t *testing.T) {
	m, err := NewManager(Options{LogDir: t.TempDir(), SampleInterval: -1, MaxRunning: 1})
	require.NoError(t, err)
	for _, id := range []string{"1", "2"} {
		require.NoError(t, syscall.Mkfifo(filepath.Join(m.LogDir(), id+".log"), 0o600))
	}
	openFIFOs(t)
	mark := newMark(t)
	running, err := m.StartSoon(Spec{Command: "exec sleep 300", Env: map[string]string{"TEST_MARK": mark}})
	require.NoError(t, err)
	queued, err := m.StartSoon(Spec{Command: "exec sleep 300"})
	require.NoError(t, err)
	info := waitFor(t, m, running.ID, "running", func(i Info) bool { return i.State == StateRunning })
	assert.Equal(t, marked(mark), []int{info.PID}, "the job's process is tracked")

	done := make(chan error, 1)
	go func() {
		if err := m.Kill(queued.ID); err != nil {
			done <- err
			return
		}
		if err := m.Kill(running.ID); err != nil {
			done <- err
			return
		}
		done <- m.Shutdown(context.Background())
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(patience):
		t.Fatal("kill or shutdown waits for a log file that does not open")
	}
	assert.Empty(t, marked(mark), "nothing left running")
	for _, id := range []ID{running.ID, queued.ID} {
		info, err := m.Get(id)
		require.NoError(t, err)
		assert.Equal(t, StateKilled, info.State)
	}
	// The opens finish when someone reads: nothing waits for them then.
	for _, id := range []string{"1", "2"} {
		r, err := os.OpenFile(filepath.Join(m.LogDir(), id+".log"), os.O_RDONLY|syscall.O_NONBLOCK, 0)
		require.NoError(t, err)
		r.Close()
	}
}
