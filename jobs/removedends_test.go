package jobs

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A job dropped by retention before anyone waited for it is still
// answered with how it ended and where its output is.
func TestWaitForAJobRetentionDropped(t *testing.T) {
	m := newManager(t, Options{KeepFinished: 1})
	first := start(t, m, Spec{Command: "echo out; exit 3"})
	waitFor(t, m, first.ID, "the first job's end", func(i Info) bool { return i.State.Done() })
	second := start(t, m, Spec{Command: "true"})
	waitFor(t, m, second.ID, "the second job's end", func(i Info) bool { return i.State.Done() })
	eventually(t, "the first job dropped", func() bool { _, err := m.Get(first.ID); return err != nil })

	info, err := m.Wait(context.Background(), first.ID)
	require.NoError(t, err)
	assert.Equal(t, first.ID, info.ID)
	assert.Equal(t, StateFailed, info.State)
	require.NotNil(t, info.ExitCode)
	assert.Equal(t, 3, *info.ExitCode)
	assert.NotEmpty(t, info.LogPath)
	assert.FileExists(t, info.LogPath)

	_, err = m.Wait(context.Background(), second.ID+1)
	var nf *NotFoundError
	assert.ErrorAs(t, err, &nf, "a job that never was")
}

// The ends remembered are the last keptRemovedEnds: the oldest go.
func TestRemovedEndsAreBounded(t *testing.T) {
	var r removedEnds
	for id := ID(1); id <= keptRemovedEnds+2; id++ {
		r.add(Info{ID: id, Name: "j", State: StateSucceeded}, "", outputSpan{}, false)
	}
	for id, want := range map[ID]bool{1: false, 2: false, 3: true, keptRemovedEnds + 2: true} {
		info, ok := r.get(id)
		assert.Equal(t, want, ok, "job %d", id)
		if ok {
			assert.Equal(t, id, info.ID)
			assert.Equal(t, StateSucceeded, info.State)
		}
	}
	assert.Len(t, r.byID, keptRemovedEnds)
}

// A removed job's command is remembered cut (a whole script can be one):
// what a wait shows of it, not the whole.
func TestRemovedEndsCutLongText(t *testing.T) {
	var r removedEnds
	long := strings.Repeat("x", 64<<10)
	r.add(Info{ID: 1, Command: long, Error: "é" + long}, "", outputSpan{}, false)
	info, ok := r.get(1)
	require.True(t, ok)
	assert.Equal(t, strings.Repeat("x", removedTextMax)+"…", info.Command)
	assert.Equal(t, "é"+strings.Repeat("x", removedTextMax-2)+"…", info.Error)
	assert.True(t, utf8.ValidString(info.Error))
}

// The jobs the cap on finished jobs dropped that did not succeed are
// there for a wait for every job to count; one removed by hand is not
// (someone chose to), nor one that succeeded.
func TestDroppedEndsAreTheCapsFailures(t *testing.T) {
	m := newManager(t, Options{KeepFinished: 1})
	failed := start(t, m, Spec{Command: "exit 3"})
	waitFor(t, m, failed.ID, "the failed job's end", func(i Info) bool { return i.State.Done() })
	ok := start(t, m, Spec{Command: "true"})
	waitFor(t, m, ok.ID, "the job that succeeds", func(i Info) bool { return i.State.Done() })
	byHand := start(t, m, Spec{Command: "exit 4"})
	waitFor(t, m, byHand.ID, "the job removed by hand", func(i Info) bool { return i.State.Done() })
	require.NoError(t, m.Remove(byHand.ID))
	last := start(t, m, Spec{Command: "true"})
	waitFor(t, m, last.ID, "the last job's end", func(i Info) bool { return i.State.Done() })
	eventually(t, "the succeeded job dropped", func() bool { _, err := m.Get(ok.ID); return err != nil })

	ends, forgotten := m.DroppedEnds()
	require.Len(t, ends, 1)
	assert.Equal(t, failed.ID, ends[0].ID)
	assert.Equal(t, StateFailed, ends[0].State)
	require.NotNil(t, ends[0].ExitCode)
	assert.Equal(t, 3, *ends[0].ExitCode)
	assert.Zero(t, forgotten)
}

// A dropped failure pushed out of the remembered ends is still counted.
func TestDroppedEndsCountTheForgotten(t *testing.T) {
	var r removedEnds
	r.add(Info{ID: 1, State: StateFailed}, "", outputSpan{}, true)
	r.add(Info{ID: 2, State: StateFailed}, "", outputSpan{}, false)
	r.add(Info{ID: 3, State: StateSucceeded}, "", outputSpan{}, true)
	for id := ID(4); id <= keptRemovedEnds+3; id++ {
		r.add(Info{ID: id, State: StateSucceeded}, "", outputSpan{}, true)
	}
	assert.Equal(t, 1, r.forgottenDropped, "job 1 only: 2 was removed by hand, 3 succeeded")
}

// A later job that runs a dropped failure again (its given name, or its
// command in its directory) stands for it; one of another command that
// got the same made-up name once the first was gone does not.
func TestDroppedEndsRunAgainStandFor(t *testing.T) {
	m := newManager(t, Options{KeepFinished: 1})
	end := func(spec Spec) Info {
		t.Helper()
		i := start(t, m, spec)
		return waitFor(t, m, i.ID, "its end", func(i Info) bool { return i.State.Done() })
	}
	failed := end(Spec{Command: "exit 3"})
	end(Spec{Command: "true"}) // drops it
	other := end(Spec{Command: "exit 0"})
	require.Equal(t, failed.Name, other.Name, "the made-up name, free again")
	end(Spec{Command: "true"})
	ends, _ := m.DroppedEnds()
	require.Len(t, ends, 1, "another command does not stand for it")
	assert.Equal(t, failed.ID, ends[0].ID)

	end(Spec{Command: "exit 3"}) // the same command, run again: it passes no better, but stands for the first
	end(Spec{Command: "true"})
	ends, _ = m.DroppedEnds()
	require.Len(t, ends, 1, "the rerun's own failure counts, the first's not")
	assert.NotEqual(t, failed.ID, ends[0].ID)

	build := end(Spec{Command: "exit 2", Name: "build"})
	end(Spec{Command: "true"})
	end(Spec{Command: "echo fixed", Name: "build"})
	end(Spec{Command: "true"})
	ends, _ = m.DroppedEnds()
	for _, e := range ends {
		assert.NotEqual(t, build.ID, e.ID, "the build run again under its name stands for it")
	}
}
