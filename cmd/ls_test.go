package cmd

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestLsRowReadsJobInfosFields: every field of the table's row is the
// field of jobs.Info of the same JSON name and type, and info() carries
// each one over; a renamed field fails here, not as an empty column.
func TestLsRowReadsJobInfosFields(t *testing.T) {
	info := reflect.TypeFor[jobs.Info]()
	byName := map[string]reflect.StructField{}
	for _, f := range reflect.VisibleFields(info) {
		byName[strings.Split(f.Tag.Get("json"), ",")[0]] = f
	}
	var row lsRow
	rv := reflect.ValueOf(&row).Elem()
	for i, f := range reflect.VisibleFields(rv.Type()) {
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		want, ok := byName[name]
		require.True(t, ok, "jobs.Info has no field %q", name)
		assert.Equal(t, want.Type, f.Type, name)
		assert.Equal(t, want.Name, f.Name, name)
		// A value of its own in each field, to see info() carry it.
		field := rv.Field(i)
		switch field.Kind() {
		case reflect.String:
			field.SetString("v-" + name)
		case reflect.Int:
			field.SetInt(int64(i + 1))
		case reflect.Pointer:
			field.Set(reflect.New(field.Type().Elem()))
		}
	}
	got := reflect.ValueOf(row.info())
	for _, f := range reflect.VisibleFields(rv.Type()) {
		assert.Equal(t, rv.FieldByName(f.Name).Interface(), got.FieldByName(f.Name).Interface(), f.Name)
	}
}

// lsRows are n jobs as ls shows them: running, ended and killed.
func lsRows(n int) []lsRow {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	end := at.Add(90 * time.Second)
	code := 3
	rows := make([]lsRow, n)
	for i := range rows {
		rows[i] = lsRow{ID: jobs.ID(i + 1), Name: fmt.Sprintf("job%04d", i), Command: "exec sleep 300 # " + strings.Repeat("x", i%80),
			State: jobs.StateRunning, PID: 10000 + i, Started: &at}
		switch i % 3 {
		case 1:
			rows[i].State, rows[i].ExitCode, rows[i].Ended = jobs.StateFailed, &code, &end
		case 2:
			rows[i].State, rows[i].Signal, rows[i].Ended = jobs.StateKilled, jobs.Signal(9), &end
		}
	}
	return rows
}

// BenchmarkLsTable1000 is what jobtop ls spends on its table of 1,000
// jobs, once they are decoded.
func BenchmarkLsTable1000(b *testing.B) {
	rows, now := lsRows(1000), time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)
	for b.Loop() {
		if err := writeLsTable(io.Discard, rows, textOut{}, now, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLsTableLaysOutAsTabwriter: the table's columns are those
// text/tabwriter made of the same cells (padding 2, widths in runes),
// with wide and combining characters, empty cells and one row.
func TestLsTableLaysOutAsTabwriter(t *testing.T) {
	now := time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)
	odd := lsRows(5)
	odd[0].Name, odd[0].Command = "構築", "echo 日本語 e\u0301"
	odd[1].Name, odd[1].Command = "n", ""
	odd[2].Command = strings.Repeat("wide 字", 20)
	for _, rows := range [][]lsRow{nil, lsRows(1), lsRows(300), odd} {
		var want bytes.Buffer
		tw := tabwriter.NewWriter(&want, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tSTATE\tPID\tTIME\tEXIT\tCOMMAND")
		for _, row := range rows {
			j := row.info()
			pid := "-"
			if j.State.Active() && j.PID != 0 {
				pid = fmt.Sprint(j.PID)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", j.ID, truncate(j.Name, 24), stateText(j, now), pid,
				formatRuntime(j.Runtime(now)), exitText(j), truncate(j.Command, 60))
		}
		require.NoError(t, tw.Flush())
		var got bytes.Buffer
		require.NoError(t, writeLsTable(&got, rows, textOut{}, now, 0))
		assert.Equal(t, want.String(), got.String(), "%d rows", len(rows))
	}
}

// TestLsShowsNoPIDZero: a stopping job whose main process exited (its
// tree is still being stopped) and a queued job have no PID: "-", never 0.
func TestLsShowsNoPIDZero(t *testing.T) {
	now := time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)
	rows := lsRows(3)
	rows[0].State, rows[0].PID = jobs.StateStopping, 0
	rows[1].State, rows[1].PID, rows[1].Started = jobs.StateQueued, 0, nil
	rows[2].State, rows[2].PID = jobs.StateStopping, 4242
	var got bytes.Buffer
	require.NoError(t, writeLsTable(&got, rows, textOut{}, now, 0))
	lines := strings.Split(got.String(), "\n")
	require.Len(t, lines, 5)
	for i, want := range []string{"-", "-", "4242"} {
		assert.Equal(t, want, strings.Fields(lines[i+1])[3], "row %d: %q", i, lines[i+1])
	}
}

// TestTruncateKeepsACellOnItsRow: line ends, tabs and form feeds in a
// name or command become spaces, bytes that are not UTF-8 become U+FFFD,
// and a cut is marked, so each job is one row of the table.
func TestTruncateKeepsACellOnItsRow(t *testing.T) {
	for in, want := range map[string]string{
		"plain":           "plain",
		"a\tb\vc\fd\r\ne": "a b c d  e",
		"a\xffb":          "a\ufffdb",
		"exactly ten":     "exactly t…",
		"日本語のコマンドです、長い": "日本語のコマンドで…",
		"": "",
	} {
		assert.Equal(t, want, truncate(in, 10), "%q", in)
	}
	rows := lsRows(3)
	rows[1].Command = "a\tb\vc\fd\re"
	var out bytes.Buffer
	require.NoError(t, writeLsTable(&out, rows, textOut{}, time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC), 0))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 4, "a header and three rows:\n%s", out.String())
	assert.True(t, strings.HasSuffix(lines[2], "a b c d e"), lines[2])
}

// A multi-line shell command shows in ls as status and the TUI show it,
// each line break as " ⏎ ": ls showed "echo one echo two", a command
// that reads as one echo, where status said "echo one ⏎ echo two".
func TestLsShowsALineBreakOfACommandAsStatusDoes(t *testing.T) {
	c := newCLI(t)
	c.serve()
	id := c.startJob("echo one\necho two")
	c.ok("wait", id)
	assert.Contains(t, c.ok("status", id), "echo one ⏎ echo two\n")
	lines := strings.Split(strings.TrimSuffix(c.ok("ls"), "\n"), "\n")
	require.Len(t, lines, 2)
	assert.True(t, strings.HasSuffix(lines[1], "  echo one ⏎ echo two"), lines[1])
}

// ls takes jobs, --state and --name, as stop and rm pick them; a job that
// is not there is an error, a selector that cannot be read a bad command
// line.
func TestLsPicksJobs(t *testing.T) {
	c := newCLI(t)
	c.serve()
	c.startJob("exec sleep 60", "--name", "web-1")
	failed := c.startJob("exit 3", "--name", "web-2")
	c.startJob("exec sleep 60", "--name", "api")
	c.run("wait", failed)
	names := func(args ...string) []string {
		t.Helper()
		var out []string
		for _, row := range strings.Split(strings.TrimSpace(c.ok(append([]string{"ls"}, args...)...)), "\n")[1:] {
			out = append(out, strings.Fields(row)[1])
		}
		return out
	}
	assert.Equal(t, []string{"web-1", "web-2", "api"}, names())
	assert.Equal(t, []string{"api"}, names("api"))
	assert.Equal(t, []string{"web-1", "api"}, names("--state", "running"))
	assert.Equal(t, []string{"web-1", "web-2"}, names("--name", "web-*"))
	assert.Equal(t, []string{"web-2"}, names("--name", "web-*", "--state", "ended"))
	assert.Nil(t, names("--name", "db"))
	r := c.run("ls", "--name", "db")
	assert.Equal(t, 0, r.code)
	assert.Equal(t, "jobtop: no job matches --name db\n", r.stderr, "the header alone says why")
	assert.Contains(t, c.ok("ls", "--json", "api"), `"name": "api"`)
	assert.NotContains(t, c.ok("ls", "--json", "api"), `"name": "web-1"`)

	r = c.run("ls", "web")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: no job \"web\": give a job ID (a number) or a job's name; `jobtop ls` lists them\n", r.stderr)
	r = c.run("ls", "--state", "sleeping")
	assert.Equal(t, 2, r.code, r.stderr)
	assert.Contains(t, r.stderr, "sleeping")
	r = c.run("ls", "--name", "")
	assert.Equal(t, 2, r.code, r.stderr)
	r = c.run("ls", "")
	assert.Equal(t, 2, r.code, r.stderr)
	assert.Contains(t, r.stderr, "an empty job name picks nothing")
}

// A restart far off reads in hours, not seconds.
func TestStateTextOfALongBackoff(t *testing.T) {
	now := time.Now()
	at := now.Add(200 * time.Hour)
	assert.Equal(t, "failed (restart in 200h00m)", stateText(jobs.Info{State: jobs.StateFailed, RestartAt: &at}, now))
	at = now.Add(42 * time.Second)
	assert.Equal(t, "failed (restart in 42s)", stateText(jobs.Info{State: jobs.StateFailed, RestartAt: &at}, now))
	at = now.Add(10 * time.Millisecond)
	assert.Equal(t, "failed (restart in <1s)", stateText(jobs.Info{State: jobs.StateFailed, RestartAt: &at}, now), "a 10ms backoff is no 1s wait")
	at = now.Add(time.Second)
	assert.Equal(t, "failed (restart in 1s)", stateText(jobs.Info{State: jobs.StateFailed, RestartAt: &at}, now))
}

// A stop's last instant before SIGKILL reads under a second, as the TUI's
// countdown does, not 1s.
func TestStateTextOfAStopsLastInstant(t *testing.T) {
	now := time.Now()
	at := now.Add(500 * time.Millisecond)
	assert.Equal(t, "stopping (SIGKILL in <1s)", stateText(jobs.Info{State: jobs.StateStopping, KillAt: &at}, now))
	at = now.Add(time.Second + time.Millisecond)
	assert.Equal(t, "stopping (SIGKILL in 2s)", stateText(jobs.Info{State: jobs.StateStopping, KillAt: &at}, now))
}

// A job stopped with a signal it caught, that then exited by itself (a
// Python job's KeyboardInterrupt handler), says its exit after the
// signal, not the signal alone (rev55: "exit: SIGINT" hid the clean exit).
func TestExitTextOfACaughtStop(t *testing.T) {
	zero := 0
	assert.Equal(t, "0 after SIGINT", exitText(jobs.Info{State: jobs.StateKilled, ExitCode: &zero, Signal: jobs.Signal(syscall.SIGINT)}))
	asSignal, other := 128+int(syscall.SIGTERM), 128+int(syscall.SIGINT)
	assert.Equal(t, "SIGTERM", exitText(jobs.Info{State: jobs.StateKilled, ExitCode: &asSignal, Signal: jobs.Signal(syscall.SIGTERM)}), "128+N for the signal sent reads as it")
	assert.Equal(t, "130 after SIGTERM", exitText(jobs.Info{State: jobs.StateKilled, ExitCode: &other, Signal: jobs.Signal(syscall.SIGTERM)}))
	assert.Equal(t, "SIGKILL", exitText(jobs.Info{State: jobs.StateKilled, Signal: jobs.Signal(syscall.SIGKILL)}))
	assert.Equal(t, "0", exitText(jobs.Info{State: jobs.StateSucceeded, ExitCode: &zero}))
}
