package ui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A notice that confirms an action or a search's wrap goes at the next
// key or after noticeLife; one that tells a job's news, or an error,
// stays; one about the split goes when the split changes.
func TestTransientNoticesGo(t *testing.T) {
	mgr := newManager(t)
	fifo := mkfifo(t, "end")
	start(t, mgr, "counter", "seq 1 50; read x < "+fifo)
	for i := 0; i < 5; i++ {
		start(t, mgr, fmt.Sprintf("sleeper%d", i), "exec sleep 60")
	}
	now := time.Now()
	var term bytes.Buffer
	m := newSizedModel(t, mgr, Config{Terminal: &term, Now: func() time.Time { return now }}, 120, 30)
	writeFifo(t, fifo, "go\n") // it ends once the model watches
	pumpUntil(t, m, "the counter to end", func() bool { return strings.Contains(m.View(), "job 1 counter succeeded") })

	// A job's end stays, through keys and time.
	press(t, m, "j", "k")
	now = now.Add(2 * noticeLife)
	m.Update(noticeExpiryMsg{})
	require.Contains(t, m.View(), "job 1 counter succeeded")

	// A copy's confirmation goes at the next key.
	press(t, m, "enter", "v", "y")
	require.Contains(t, m.View(), "copied 1 line selected")
	press(t, m, "k")
	require.NotContains(t, m.View(), "copied")

	// A search's wrap goes after noticeLife, with no key.
	press(t, m, "G")
	search(t, m, "5")
	require.Contains(t, m.single.headerView(), "match 6/6")
	press(t, m, "n")
	require.Contains(t, m.View(), "search wrapped to the first match")
	now = now.Add(noticeLife / 2)
	m.Update(noticeExpiryMsg{})
	require.Contains(t, m.View(), "search wrapped to the first match", "not yet")
	now = now.Add(noticeLife)
	m.Update(noticeExpiryMsg{})
	require.NotContains(t, m.View(), "search wrapped")
	press(t, m, "esc", "esc")

	// An error stays at the next key.
	press(t, m, "g", "j", "d")
	require.Contains(t, m.View(), "running")
	errText := m.notice.text
	require.True(t, m.notice.isErr, "removing a running job is refused: %q", errText)
	press(t, m, "j")
	now = now.Add(2 * noticeLife)
	m.Update(noticeExpiryMsg{})
	require.Contains(t, m.View(), errText)

	// The split's notice goes when the split changes.
	press(t, m, "s")
	require.Contains(t, m.View(), "showing the first 4 of 5 running jobs")
	press(t, m, "tab")
	require.Contains(t, m.View(), "showing the first 4 of 5 running jobs", "the split is as it says")
	press(t, m, "s")
	require.NotContains(t, m.View(), "showing the first")
	require.Equal(t, viewSingle, m.mode)
	press(t, m, "esc")
	require.Equal(t, focusTable, m.focus)
	press(t, m, "g", "space", "j", "space", "j", "space", "s")
	require.Len(t, m.split, 3)
	require.NotContains(t, m.View(), "showing the first")
	press(t, m, "s")
	require.NotContains(t, m.View(), "showing the first")
}

// A key refused with why and what to do instead stays, and shows whole
// at 80 columns before the counts (rev51: `R` with no job file went at
// the next key, cut before its hint).
func TestRefusalsStayAndShowWhole(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "sleeper", "exec sleep 60")
	now := time.Now()
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return now }}, 80, 24)
	pumpUntil(t, m, "the job", func() bool { return strings.Contains(m.View(), "sleeper") })
	press(t, m, "R")
	want := "no job file to reload: this instance runs none"
	require.Contains(t, strings.Join(strings.Fields(m.View()), " "), want)
	press(t, m, "j", "k")
	now = now.Add(2 * noticeLife)
	m.Update(noticeExpiryMsg{})
	require.Contains(t, strings.Join(strings.Fields(m.View()), " "), want, "it stays through keys and time")
	requireFits(t, m.View(), 80, 24, "refusal")
}
