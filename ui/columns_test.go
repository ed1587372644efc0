package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func TestFormatCPUAndBytes(t *testing.T) {
	for pct, want := range map[float64]string{0: "0.0", 0.44: "0.4", 9.94: "9.9", 9.96: "10", 99.6: "100", 250: "250", 999.4: "999", 1234: "1.2k", -1: "0.0"} {
		require.Equal(t, want, formatCPU(pct), "%v", pct)
		require.LessOrEqual(t, len(want), 5)
	}
	const k, m, g = 1 << 10, 1 << 20, 1 << 30
	for n, want := range map[int64]string{0: "0K", 1: "1K", 512 * k: "512K", 999 * k: "999K", 1000 * k: "1.0M", 12*m + m/3: "12.3M", 99*m + m/2: "100M", 999 * m: "999M", 1000 * m: "1.0G", 150 * g: "150G"} {
		require.Equal(t, want, formatBytes(n), "%d", n)
		require.LessOrEqual(t, len(want), 5)
	}
}

// Running jobs show the CPU and memory of their process tree; ended jobs
// show nothing there.
func TestUsageColumns(t *testing.T) {
	mgr, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), SampleInterval: 100 * 1e6})
	require.NoError(t, err)
	t.Cleanup(func() { _ = mgr.Shutdown(t.Context()) })
	_, err = mgr.Start(jobs.Spec{Name: "busy", Command: "yes > /dev/null & wait"})
	require.NoError(t, err)
	_, err = mgr.Start(jobs.Spec{Name: "done", Command: "true"})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	pumpUntil(t, m, "a sample with CPU, and true ended", func() bool {
		info, _ := m.table.Get(1)
		done, _ := m.table.Get(2)
		return info.Usage.CPU > 20 && info.Usage.RSS > 0 && done.State.Done()
	})
	header := lines(m.View())[0]
	require.Contains(t, header, "CPU%")
	require.Contains(t, header, "RSS")
	cells := func(name string) []string {
		row := rowOf(m, name)
		var out []string
		start := markerWidth
		for _, c := range m.table.cols {
			if c.kind == colCPU || c.kind == colRSS {
				out = append(out, strings.TrimSpace(ansi.Cut(row, start, start+c.width)))
			}
			start += c.width + colSep
		}
		return out
	}
	busy := cells("busy")
	require.Regexp(t, `^\d+(\.\d)?$`, busy[0])
	require.Regexp(t, `^\d+(\.\d)?[KMG]$`, busy[1])
	require.Equal(t, []string{"", ""}, cells("done"))
	require.NoError(t, mgr.Kill(1))
}

func TestColumnsDropAsTheTableNarrows(t *testing.T) {
	titles := func(w int) []string {
		var out []string
		for _, c := range layoutColumns(w, 9, 8) {
			out = append(out, c.title)
		}
		return out
	}
	require.Equal(t, []string{"ID", "NAME", "STATUS", "PID", "TIME", "EXIT", "CPU%", "RSS", "LINES", "OUTPUT"}, titles(120))
	require.NotContains(t, titles(80), "LINES")
	require.Equal(t, []string{"ID", "NAME", "STATUS", "TIME", "EXIT", "CPU%", "RSS", "OUTPUT"}, titles(70))
	require.Equal(t, []string{"ID", "NAME", "STATUS", "TIME", "EXIT", "CPU%", "OUTPUT"}, titles(66))
	require.Equal(t, []string{"ID", "NAME", "STATUS", "TIME", "EXIT", "OUTPUT"}, titles(60))

	// A long name keeps up to nameKeptWidth cells before PID goes, then
	// shrinks before the usage columns go.
	named := func(w, longest int) (names int, titles []string) {
		for _, c := range layoutColumns(w, 9, longest) {
			titles = append(titles, c.title)
			if c.kind == colName {
				names = c.width
			}
		}
		return names, titles
	}
	names, at80 := named(80, len("frontend-dev-server"))
	require.Equal(t, len("frontend-dev-server"), names, "whole at 80 columns: %v", at80)
	require.Equal(t, []string{"ID", "NAME", "STATUS", "TIME", "EXIT", "CPU%", "RSS", "OUTPUT"}, at80)
	names, _ = named(80, nameMaxWidth)
	require.Equal(t, nameKeptWidth, names)
	names, at70 := named(70, nameMaxWidth)
	require.Less(t, names, nameKeptWidth)
	require.Contains(t, at70, "RSS", "the name shrinks before RSS goes")
	names, _ = named(60, nameMaxWidth)
	require.Equal(t, nameMinWidth, names)
}

// LINES counts the lines the job wrote, in all its runs: not jobtop's own
// "── run 2 ──" marker between them, which the pane shows.
func TestLinesColumnCountsOnlyTheJobsLines(t *testing.T) {
	mgr := newManager(t)
	info := start(t, mgr, "two", `echo one; echo two`)
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	linesCell := func() string {
		v := lines(m.View())
		at := strings.Index(v[0], "LINES ") // the header is ASCII: a byte is a cell
		require.GreaterOrEqual(t, at, 0, "a LINES column:\n%s", m.View())
		end := at + len("LINES")
		return strings.TrimSpace(string([]rune(v[1])[end-6 : end])) // right-aligned under its title, 6 wide
	}
	pumpUntil(t, m, "the first run to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	require.Equal(t, "2", linesCell())

	_, err := mgr.Restart(info.ID)
	require.NoError(t, err)
	pumpUntil(t, m, "the second run to end", func() bool {
		j, _ := m.table.Get(info.ID)
		return j.Runs == 2 && j.State == jobs.StateSucceeded && j.Lines == 5
	})
	press(t, m, "enter")
	require.Contains(t, m.View(), "── run 2 ──", "the marker is in the pane")
	require.Equal(t, "4", linesCell(), "two runs of two lines, the marker not counted")
}
