package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Measurements of terminal (PTY) jobs, run on demand like the others:
//
//	JOBTOP_PERF=1 go test ./e2e/ -run PerfPTY -v -timeout 30m

// TestPerfPTYW64 runs W64 four ways, alternately, in one run: into
// cat > /dev/null (the floor), on a terminal read into nothing (ptydrain:
// the kernel's terminal layer, the floor for any terminal program), in a
// bare tmux pane 200x50 (a terminal drawing every line), and as a
// terminal job of jobtop in tmux 200x50, selected and followed. It
// reports the medians and the ratios (target: jobtop at most 0.5x the
// bare tmux pane).
func TestPerfPTYW64(t *testing.T) {
	perfOnly(t)
	bin, drain := binary(t), ptydrain(t)
	const reps = 5
	var base, floor, bare, inJobtop []time.Duration
	for i := 0; i < reps; i++ {
		out, err := exec.Command("sh", "-c", w64("| cat > /dev/null")).Output()
		require.NoError(t, err)
		base = append(base, parseTook(t, string(out)))

		out, err = exec.Command(drain, "sh", "-c", w64("")+" >&2").CombinedOutput()
		require.NoError(t, err, "%s", out)
		floor = append(floor, parseTook(t, string(out)))

		s := newSession(t, 200, 50, nil, "sh", "-c", w64("")+"; sleep 600")
		scr := s.waitFor("W64 in a bare pane", func(scr []string) bool { return tookRE.MatchString(strings.Join(scr, "\n")) })
		bare = append(bare, parseTook(t, strings.Join(scr, "\n")))
		_ = s.tmuxErr("kill-server")

		s = newSession(t, 200, 50, nil, bin, "--name", "w64", w64(""))
		scr = s.waitFor("W64 in jobtop", func(scr []string) bool {
			return strings.Contains(row(scr, "w64"), "✓ succeeded") && tookRE.MatchString(strings.Join(scr, "\n"))
		})
		inJobtop = append(inJobtop, parseTook(t, strings.Join(scr, "\n")))
		require.Contains(t, strings.Join(scr, "\n"), "following", "the job is followed")
		s.keys("q")
		s.waitExit()
		_ = s.tmuxErr("kill-server")
	}
	mb, mf, mt, mj := median(base), median(floor), median(bare), median(inJobtop)
	t.Logf("W64 | cat > /dev/null: median %v  samples %v", mb, base)
	t.Logf("W64 on a terminal read into nothing (ptydrain): median %v  samples %v  (%.1fx cat, %.2fx the bare pane)", mf, floor, ratio(mf, mb), ratio(mf, mt))
	t.Logf("W64 in a bare tmux pane 200x50: median %v  samples %v  (%.1fx cat)", mt, bare, ratio(mt, mb))
	t.Logf("W64 as a terminal job in jobtop (tmux 200x50, selected, followed): median %v  samples %v  (%.1fx cat)", mj, inJobtop, ratio(mj, mb))
	t.Logf("jobtop / bare tmux pane: %.2fx (target <= 0.5x); jobtop / the terminal floor: %.2fx", ratio(mj, mt), ratio(mj, mf))
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

// cpuTime is the CPU a process has used (user and system), from
// /proc/PID/stat, in clock ticks of 10 ms.
func cpuTime(t testing.TB, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	require.NoError(t, err)
	st := string(b)
	f := strings.Fields(st[strings.LastIndexByte(st, ')')+1:])
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// tmuxServerPID is the PID of the session's tmux server.
func (s *session) tmuxServerPID() int {
	s.t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(s.tmux("display-message", "-p", "#{pid}")))
	require.NoError(s.t, err)
	return pid
}

// pidOf is the PID of the one live process whose command line contains
// token.
func pidOf(t testing.TB, token string) int {
	t.Helper()
	var pid int
	require.Eventually(t, func() bool {
		ps := processesWith(token)
		if len(ps) != 1 {
			return false
		}
		p, _, _ := strings.Cut(ps[0], ":")
		pid, _ = strconv.Atoi(p)
		return pid > 0
	}, deadline, 20*time.Millisecond, "one process with %s", token)
	return pid
}

// cpuOver measures the CPU the processes use over a window of wall time.
func cpuOver(t testing.TB, window time.Duration, pids ...int) (time.Duration, []time.Duration) {
	t.Helper()
	start := make([]time.Duration, len(pids))
	for i, p := range pids {
		start[i] = cpuTime(t, p)
	}
	time.Sleep(window) // a measurement window, not a wait for a condition
	each := make([]time.Duration, len(pids))
	var sum time.Duration
	for i, p := range pids {
		each[i] = cpuTime(t, p) - start[i]
		sum += each[i]
	}
	return sum, each
}

// TestPerfPTYScreenCPU runs the full-screen program redrawing its whole
// screen 60 times a second (every cell changes every frame) as a job of
// jobtop in tmux 200x50, and alone in a bare tmux pane of the size it
// got in jobtop, alternately, and compares the CPU over the same window:
// jobtop's own against the bare pane's tmux server (target: at most
// 1.5x), and all that draws it (jobtop and its tmux) against the bare
// pane's tmux.
func TestPerfPTYScreenCPU(t *testing.T) {
	perfOnly(t)
	bin, fs := binary(t), fullscreen(t)
	const reps, window = 3, 5 * time.Second
	var ratios, totals []float64
	for i := 0; i < reps; i++ {
		token := fmt.Sprintf("%d.%d", os.Getpid(), 6060+i)
		s := newSession(t, 200, 50, nil, bin, "--name", "busy", "exec "+fs+" -fps 60 "+token)
		scr := waitBoxes(s, "the busy screen", 0)
		cols, rows, _ := boxFits(scr, 0)
		time.Sleep(time.Second) // let it reach its pace
		_, each := cpuOver(t, window, s.jobtopPID(), s.tmuxServerPID(), pidOf(t, token))
		s.keys("q", "y")
		s.waitExit()
		_ = s.tmuxErr("kill-server")

		b := newSession(t, cols, rows, nil, fs, "-fps", "60", token)
		waitBoxes(b, "the busy screen in a bare pane", 0)
		time.Sleep(time.Second)
		_, bareEach := cpuOver(t, window, b.tmuxServerPID(), pidOf(t, token))
		_ = b.tmuxErr("kill-server")

		t.Logf("round %d, %dx%d at 60 fps over %v: jobtop %v, its tmux %v, the program %v | bare tmux %v, the program %v",
			i+1, cols, rows, window, each[0], each[1], each[2], bareEach[0], bareEach[1])
		ratios = append(ratios, float64(each[0])/float64(bareEach[0]))
		totals = append(totals, float64(each[0]+each[1])/float64(bareEach[0]))
	}
	slices.Sort(ratios)
	slices.Sort(totals)
	t.Logf("jobtop CPU / bare tmux pane CPU: median %.2fx  %v (target <= 1.5x)", ratios[len(ratios)/2], ratios)
	t.Logf("(jobtop + its tmux) / bare tmux pane: median %.2fx  %v", totals[len(totals)/2], totals)
}

// TestPerfPTYKeyEcho measures key -> echo in input mode: keys typed into
// the full-screen program (screen mode) in jobtop, in tmux 200x50, with
// three firehose jobs writing as fast as they can (on terminals, and on
// pipes), timed until tmux shows the program's echo of each. Target: p95
// at most 40 ms.
func TestPerfPTYKeyEcho(t *testing.T) {
	perfOnly(t)
	bin, fs := binary(t), fullscreen(t)
	yes := "yes '" + line80 + "'"
	// The firehoses on pipes beside the program on a terminal: as the
	// key-latency measurement has them.
	file := filepath.Join(t.TempDir(), "jobtop.yaml")
	require.NoError(t, os.WriteFile(file, []byte(fmt.Sprintf(
		"jobs:\n  full: {cmd: %q, tty: true}\n  fire1: {cmd: %q}\n  fire2: {cmd: %q}\n  fire3: {cmd: %q}\n",
		fs, yes, yes, yes)), 0o600))
	for _, c := range []struct {
		name string
		argv []string
	}{
		{"idle", []string{"--name", "full", "--", fs}},
		{"3 firehose jobs on terminals", []string{"--name", "full,fire1,fire2,fire3", fs, yes, yes, yes}},
		{"3 firehose jobs on pipes", []string{"-f", file}},
	} {
		s := newSession(t, 200, 50, strings.Fields(os.Getenv("JOBTOP_PERF_ENV")), append([]string{bin}, c.argv...)...)
		waitBoxes(s, "the program", 0)
		s.keys("Enter", "i")
		s.waitText("INPUT")
		time.Sleep(2 * time.Second) // let the writers reach full speed
		lat := keyEchoLatencies(t, s, 150)
		slices.Sort(lat)
		t.Logf("%s: key->echo p50 %v  p95 %v  p99 %v  max %v  (n=%d)", c.name,
			pct(lat, 50), pct(lat, 95), pct(lat, 99), lat[len(lat)-1], len(lat))
		s.keys("C-a", "q", "y")
		s.waitExit()
		_ = s.tmuxErr("kill-server")
	}
}

// keyEchoLatencies types n letters and times each until the program's
// "keys:" line in its box (not the table's last-line column) ends with
// what was typed.
func keyEchoLatencies(t *testing.T, s *session, n int) []time.Duration {
	t.Helper()
	var out []time.Duration
	typed := ""
	for i := 0; i < n; i++ {
		k := string(rune('a' + rand.IntN(26)))
		if k == "q" {
			k = "z"
		}
		typed += k
		want := typed[max(len(typed)-20, 0):]
		start := time.Now()
		s.keys(k)
		for {
			r := ""
			for _, l := range s.screen() {
				if strings.HasPrefix(l, "│keys:") {
					r = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(l, " "), "│"), " ")
				}
			}
			if strings.HasSuffix(r, want) {
				break
			}
			require.Less(t, time.Since(start), deadline, "the key never showed: %q", r)
		}
		out = append(out, time.Since(start))
		time.Sleep(time.Duration(30+rand.IntN(70)) * time.Millisecond)
	}
	return out
}
