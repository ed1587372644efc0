package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// e on a job run as argv fills the prompt in with a command line that
// /bin/sh runs as those very words: an argument with a tab or a line
// feed in it was written as $'tab\there', which dash does not read (it
// printed "$tab\there|"). The prompt shows the tab and the line feed as
// ⇥ and ⏎; what runs has them.
func TestEditRunsAnArgvJobsControlCharactersUnderSh(t *testing.T) {
	mgr := newManager(t)
	words := []string{"tab\there", "two\nlines", "end\n", "\x1b[1mbold", "it's"}
	first, err := mgr.Start(jobs.Spec{Name: "p", Argv: append([]string{"printf", "%s|"}, words...), TTY: false})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 200, 30)
	pumpUntil(t, m, "the job", func() bool { return strings.Contains(m.View(), "✓ succeeded") })

	press(t, m, "e")
	require.NotNil(t, m.prompt)
	shown := m.prompt.inputs[0].Value()
	require.Contains(t, shown, "tab⇥here", "the tab shown")
	require.Contains(t, shown, "two⏎lines", "the line feed shown")
	press(t, m, "enter")
	require.Nil(t, m.prompt)
	pumpUntil(t, m, "the new job", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 2 })
	sel, ok := m.table.Selected()
	require.True(t, ok)
	require.NotEqual(t, first.ID, sel.ID)
	require.Equal(t, jobs.ShellLine(append([]string{"printf", "%s|"}, words...)), sel.Command, "the line run holds the tab and the line feeds")
	out, err := mgr.Output(sel.ID)
	require.NoError(t, err)
	var got []string
	for _, l := range out.ReadAfter(0, 0).Lines {
		got = append(got, l.Text)
	}
	want, err := mgr.Output(first.ID)
	require.NoError(t, err)
	var printed []string
	for _, l := range want.ReadAfter(0, 0).Lines {
		printed = append(printed, l.Text)
	}
	require.Equal(t, printed, got, "the same words printed")
	require.Contains(t, strings.Join(got, "\n"), "tab\there|two\nlines|end\n|", "as printf prints them")
}

// A ⏎ or ⇥ typed (or in a job's own command) is that character, not a
// line feed or a tab (rev60: "echo press ⏎ to go" ran as two lines); a
// shell-line job's own ESC and CR (a job file's cmd) come back as they
// were when edited, not dropped and made a space.
func TestEditAndAddKeepGlyphsAndControlsApart(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 200, 30)
	press(t, m, "a")
	require.NotNil(t, m.prompt)
	typeText(t, m, "echo 'press ⏎ to go ⇥'")
	press(t, m, "enter")
	require.Nil(t, m.prompt)
	pumpUntil(t, m, "the typed job", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	sel, ok := m.table.Selected()
	require.True(t, ok)
	require.Equal(t, "echo 'press ⏎ to go ⇥'", sel.Command)

	ctl := "printf 'A\x1b[1mB\rC|\\n'\necho two"
	first, err := mgr.Start(jobs.Spec{Name: "ctl", Command: ctl})
	require.NoError(t, err)
	m = newSizedModel(t, mgr, Config{Select: first.ID}, 200, 30)
	pumpUntil(t, m, "the job", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 2 })
	press(t, m, "e")
	require.NotNil(t, m.prompt)
	require.Equal(t, "printf 'A␛[1mB␍C|\\n'⏎echo two", m.prompt.inputs[0].Value(), "its controls shown")
	press(t, m, "enter")
	require.Nil(t, m.prompt)
	pumpUntil(t, m, "the edited job", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 3 })
	sel, ok = m.table.Selected()
	require.True(t, ok)
	require.Equal(t, ctl, sel.Command, "what runs is what ran")
}
