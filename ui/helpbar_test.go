package ui

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// The help bar is laid out again when what it shows changes (a key
// enabled or disabled, a key's description, the width), and reused as it
// was otherwise.
func TestHelpBarIsReusedUntilItsKeysChange(t *testing.T) {
	e := newFixedEngine(jobs.Info{ID: 1, Name: "one", State: jobs.StateRunning, Started: atp(0)})
	m := newSizedModel(t, e, Config{Now: func() time.Time { return fixedNow }}, 120, 30)
	first := m.helpView()
	require.Contains(t, first, "q quit")
	require.Same(t, unsafe.StringData(first), unsafe.StringData(m.helpView()), "nothing changed: the same text")
	require.Contains(t, m.View(), first)

	m.km.Quit.SetEnabled(false)
	require.NotContains(t, m.helpView(), "q quit", "a key disabled leaves the bar")
	m.km.Quit.SetEnabled(true)
	m.km.Quit.SetHelp("q", "leave")
	require.Contains(t, m.helpView(), "q leave", "a new description shows")
	m.km.Quit.SetHelp("q", "quit")

	m.Update(resize(40, 30))
	for _, l := range strings.Split(m.helpView(), "\n") {
		require.LessOrEqual(t, textWidth(l), 40, "laid out again at the new width")
	}
	require.Contains(t, m.View(), m.helpView())
}
