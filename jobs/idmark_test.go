package jobs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Managers on the same ID mark (jobtop's instances on one socket, one
// after another) never give an ID twice: `wait 1` against the next one
// must not answer for another job 1. One that shut down is followed with
// no gap; one that died skips the rest of the block it had taken.
func TestIDsGoOnAfterAnEarlierManagerOnTheSameMark(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "ids")
	first, err := NewManager(Options{LogDir: t.TempDir(), IDPath: mark, Emulator: testEmulator})
	require.NoError(t, err)
	nightly := wait(t, first, start(t, first, Spec{Name: "nightly", Command: "exit 9"}).ID)
	assert.Equal(t, ID(1), nightly.ID, "a fresh mark starts at 1")
	assert.Equal(t, ID(1), first.FirstID())
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	require.NoError(t, first.Shutdown(ctx))

	second := newManager(t, Options{IDPath: mark})
	other := wait(t, second, start(t, second, Spec{Name: "other", Command: "true"}).ID)
	assert.Equal(t, ID(2), other.ID, "after one that shut down, no gap")
	assert.Equal(t, ID(2), second.FirstID())
	_, err = second.Wait(context.Background(), nightly.ID)
	var nf *NotFoundError
	require.ErrorAs(t, err, &nf)
	assert.EqualError(t, err, "no job with ID 1: job 1 belonged to an earlier jobtop instance on this socket, which has ended (its results are gone; this one numbers its jobs from 2)")
	_, err = second.Get(nightly.ID)
	assert.ErrorAs(t, err, &nf)
	_, err = second.Output(nightly.ID)
	assert.ErrorAs(t, err, &nf)
	_, err = second.Get(3)
	assert.EqualError(t, err, "no job with ID 3", "an ID not given yet is only unknown")

	// Past a block: added, not started, 150 jobs take IDs up to 152.
	for range 150 {
		_, err := second.Add(Spec{Command: "true"})
		require.NoError(t, err)
	}
	// A manager made while second still runs finds what second would
	// have left had it died: the end of its block.
	third := newManager(t, Options{IDPath: mark})
	assert.Equal(t, ID(201), start(t, third, Spec{Command: "true"}).ID, "one that died skips the rest of its block")
}

// A mark that cannot be read as one is an error that says what to do,
// not IDs from 1 that could name an earlier instance's jobs.
func TestADamagedIDMarkIsAnError(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "ids")
	require.NoError(t, os.WriteFile(mark, []byte("{\"tak"), 0o600))
	_, err := NewManager(Options{LogDir: t.TempDir(), IDPath: mark, Emulator: testEmulator})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "job ID mark "+mark+" is damaged")
	assert.Contains(t, err.Error(), "remove it")
}

// A mark that cannot be written (a full disk, a read-only state
// directory) does not stop jobs from starting (rev59: no instance would
// start, nor a job once the block ran out): IDs go on from memory, and
// the mark is written as the manager shuts down if it can be then.
func TestAnIDMarkThatCannotBeWrittenStopsNothing(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "ids")
	require.NoError(t, os.Mkdir(mark+nextSuffix, 0o700)) // each write's file cannot be made
	first, err := NewManager(Options{LogDir: t.TempDir(), IDPath: mark, Emulator: testEmulator})
	require.NoError(t, err)
	for want := ID(1); want <= 150; want++ {
		info, err := first.Add(Spec{Command: "true"})
		require.NoError(t, err)
		require.Equal(t, want, info.ID)
	}
	assert.NoFileExists(t, mark)
	require.NoError(t, os.Remove(mark+nextSuffix))
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	require.NoError(t, first.Shutdown(ctx))
	second := newManager(t, Options{IDPath: mark})
	assert.Equal(t, ID(151), second.FirstID(), "written as it shut down")
}

// A mark past 2^53 is damaged: near the largest int64 the next block's
// end wrapped to a negative ID (rev59). A block's end written after a
// mark just under it is not (rev60: the next instance refused it).
func TestAnIDMarkBeyondTwoToThe53IsDamaged(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "ids")
	require.NoError(t, os.WriteFile(mark, []byte(`{"taken":9223372036854775800}`), 0o600))
	_, err := NewManager(Options{LogDir: t.TempDir(), IDPath: mark, Emulator: testEmulator})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is damaged")

	require.NoError(t, os.WriteFile(mark, []byte(fmt.Sprintf(`{"taken":%d}`, maxIDMark-50)), 0o600))
	first := newManager(t, Options{IDPath: mark})
	info, err := first.Add(Spec{Command: "true"})
	require.NoError(t, err)
	second := newManager(t, Options{IDPath: mark}) // as after first died
	assert.Greater(t, second.FirstID(), info.ID)
}
