package ui

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

var osc52Seq = regexp.MustCompile("\x1b]52;c;([A-Za-z0-9+/=]*)\a")

// clipboard is what the OSC 52 sequences written to the terminal put on
// the clipboard, one entry per copy.
func clipboard(t *testing.T, term *bytes.Buffer) []string {
	t.Helper()
	var out []string
	for _, m := range osc52Seq.FindAllStringSubmatch(term.String(), -1) {
		b, err := base64.StdEncoding.DecodeString(m[1])
		require.NoError(t, err)
		out = append(out, string(b))
	}
	return out
}

// copyModel is a model over one finished job that wrote n numbered lines
// in colour (every 100th says HIT), its output focused, at 100x30.
func copyModel(t *testing.T, n int, term *bytes.Buffer) *Model {
	t.Helper()
	mgr := newManager(t)
	start(t, mgr, "counter", fmt.Sprintf(`for i in $(seq 1 %d); do if [ $((i %% 100)) = 0 ]; then printf '\033[31mline %%d HIT\033[0m\n' $i; else echo "line $i"; fi; done`, n))
	m := newSizedModel(t, mgr, Config{Terminal: term}, 100, 30)
	pumpUntil(t, m, "the job to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "enter")
	return m
}

func TestCopySelectionGoesToTheClipboardWithoutColours(t *testing.T) {
	var term bytes.Buffer
	m := copyModel(t, 1000, &term)
	p := m.single

	press(t, m, "v")
	require.NotNil(t, p.sel)
	require.Contains(t, p.headerView(), "select")
	press(t, m, "k", "k")
	press(t, m, "y")
	require.Nil(t, p.sel, "y ends the selection")
	require.Equal(t, []string{"line 998\nline 999\nline 1000 HIT\n"}, clipboard(t, &term))
	require.Equal(t, "copied 3 lines selected", m.notice.text)
	require.Contains(t, m.View(), "copied 3 lines selected")

	// g goes to the oldest line, j moves the end down; esc cancels.
	term.Reset()
	press(t, m, "v", "g", "j")
	require.Contains(t, paneText(p), "line 1")
	press(t, m, "esc")
	require.Nil(t, p.sel)
	require.Equal(t, focusOutput, m.focus, "esc leaves the selection, not the pane")
	require.Empty(t, term.String())

	// A selection made with search: from a HIT to the next one, colours
	// left out.
	search(t, m, "hit")
	require.Contains(t, p.headerView(), "match 1/10", "paused at the top: the first match")
	press(t, m, "v", "n")
	press(t, m, "y")
	got := clipboard(t, &term)
	require.Len(t, got, 1)
	require.Equal(t, 101, bytes.Count([]byte(got[0]), []byte("\n")))
	require.Regexp(t, `^line 100 HIT\nline 101\n(.|\n)*line 200 HIT\n$`, got[0])
	require.NotContains(t, got[0], "\x1b")
}

func TestCopyVisibleAndMatches(t *testing.T) {
	var term bytes.Buffer
	m := copyModel(t, 1000, &term)
	p := m.single
	press(t, m, "Y")
	got := clipboard(t, &term)
	require.Len(t, got, 1)
	shown := paneText(p)
	want := ""
	for _, l := range shown {
		want += l + "\n"
	}
	require.Equal(t, want, got[0], "Y copies the lines on screen")
	require.Equal(t, fmt.Sprintf("copied %d lines on screen", len(shown)), m.notice.text)

	term.Reset()
	search(t, m, "hit")
	press(t, m, "&")
	press(t, m, "Y")
	got = clipboard(t, &term)
	require.Len(t, got, 1)
	want = ""
	for i := 100; i <= 1000; i += 100 {
		want += fmt.Sprintf("line %d HIT\n", i)
	}
	require.Equal(t, want, got[0], "with & on, Y copies every match, on screen or not")
	require.Equal(t, "copied 10 lines matching hit", m.notice.text)
}

func TestCopyIsBounded(t *testing.T) {
	var term bytes.Buffer
	m := copyModel(t, 20000, &term)
	press(t, m, "v", "g", "y")
	got := clipboard(t, &term)
	require.Len(t, got, 1)
	require.LessOrEqual(t, len(got[0]), copyMaxBytes)
	require.Greater(t, len(got[0]), copyMaxBytes-20)
	require.Contains(t, m.notice.text, "stopped at the 64 KiB")
	// How many of how many: "copied 648 lines matching x" never said
	// that 2000 matched.
	n := strings.Count(got[0], "\n")
	require.Equal(t, fmt.Sprintf("copied %d of 10000 lines selected (stopped at the 64 KiB a terminal takes at once)", n), m.notice.text)

	term.Reset()
	search(t, m, "line")
	press(t, m, "&", "Y")
	got = clipboard(t, &term)
	require.Len(t, got, 1)
	n = strings.Count(got[0], "\n")
	require.Less(t, n, 10000)
	require.Equal(t, fmt.Sprintf("copied %d of 10000 lines matching line (stopped at the 64 KiB a terminal takes at once)", n), m.notice.text)
}

// A pane whose last line is still being written (a prompt) copies it
// once: Y and a selection to the end stop after it.
func TestCopyEndsAtALineBeingWritten(t *testing.T) {
	var term bytes.Buffer
	mgr := newManager(t)
	start(t, mgr, "asks", `printf 'a\nb\nprompt> '; sleep 60`)
	m := newSizedModel(t, mgr, Config{Terminal: &term}, 100, 30)
	pumpUntil(t, m, "the prompt", func() bool { return strings.Contains(m.View(), "prompt>") })
	press(t, m, "enter")
	pumpUntil(t, m, "the prompt in the pane", func() bool { return slices.Contains(paneText(m.single), "prompt>") })
	press(t, m, "Y")
	require.Equal(t, []string{"a\nb\nprompt> \n"}, clipboard(t, &term))
	require.Equal(t, "copied 3 lines on screen", m.notice.text)

	term.Reset()
	press(t, m, "v", "g", "y")
	require.Equal(t, []string{"a\nb\nprompt> \n"}, clipboard(t, &term))
}

// v on a pane showing a program's screen selects nothing (a screen has no
// lines), and says so in the status bar, with what works there instead:
// Y copies the screen, ↑ shows the job's lines, where v selects.
func TestSelectOnAScreenSaysWhyNot(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "full", "echo before; "+boxScreen(mkfifo(t, "never")))
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "│日本 x│") })
	press(t, m, "enter", "v")
	require.Nil(t, m.single.sel)
	require.True(t, m.single.InScreen(), "the screen still shows")
	require.Contains(t, m.View(), "Y copies the screen; ↑/k shows lines to select")

	press(t, m, "k", "v")
	require.NotNil(t, m.single.sel, "on the job's lines v selects")
	require.Contains(t, m.View(), "select")
}

// At 80 columns the notice v gives on a screen is whole, and it offers
// ↑/k only when the job wrote lines to show.
func TestSelectOnAScreenSaysWhyNotAt80Columns(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "full", boxScreen(mkfifo(t, "never")))
	m := newSizedModel(t, mgr, Config{}, 80, 20)
	pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "│日本 x│") })
	press(t, m, "enter", "v")
	require.True(t, m.single.InScreen())
	require.Contains(t, m.View(), "Y copies the screen; no lines to select")
	require.NotContains(t, m.View(), "↑/k")

	lines := newManager(t)
	startTTY(t, lines, "full", "echo before; "+boxScreen(mkfifo(t, "never")))
	m = newSizedModel(t, lines, Config{}, 80, 20)
	pumpUntil(t, m, "the screen", func() bool { return screenShows(m, "│日本 x│") })
	press(t, m, "enter", "v")
	require.Contains(t, m.View(), "Y copies the screen; ↑/k shows lines to select")
}
