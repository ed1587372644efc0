package cmd

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"

	"jobtop/control"
	"jobtop/jobs"
)

// wait --until --cursor C waits for the next prompt: the line being
// written when the wait starts does not count once complete, whether
// completed by what was typed at it, by the run's end or by a restart;
// the next one does. Without --cursor, the prompt shown counts.
func TestUntilMatcherWaitsForTheNextPrompt(t *testing.T) {
	prompt := regexp.MustCompile(`^prompt> `)
	line := func(seq uint64, text string) jobs.Line { return jobs.Line{Seq: seq, Stream: jobs.Stdout, Text: text} }
	shown := []jobs.Line{line(0, "prompt> ")}
	answer := func(next uint64, lines []jobs.Line, partial ...jobs.Line) control.OutputResponse {
		return control.OutputResponse{Lines: lines, NextCursor: next, Partial: partial}
	}

	m := control.NewNextMatcher(4, true, untilLine(prompt))
	m.StaleAt(shown)
	_, ok := m.Find(answer(4, nil, shown...))
	assert.False(t, ok, "the prompt shown as the wait starts")
	_, ok = m.Find(answer(5, []jobs.Line{line(5, "prompt> hello")}))
	assert.False(t, ok, "that prompt with what was typed at it")
	l, ok := m.Find(answer(6, []jobs.Line{line(6, "hello to you")}, line(0, "prompt> ")))
	assert.True(t, ok, "the next prompt")
	assert.Equal(t, "prompt> ", l.Text)

	m = control.NewNextMatcher(4, true, untilLine(prompt))
	m.StaleAt(shown)
	_, ok = m.Find(answer(5, []jobs.Line{line(5, "prompt> ")}))
	assert.False(t, ok, "the prompt as the run's end left it")
	l, ok = m.Find(answer(7, []jobs.Line{{Seq: 6, Stream: jobs.Meta, Text: "── run 2 ──"}}, line(0, "prompt> again")))
	assert.True(t, ok, "the next run's prompt")
	assert.Equal(t, "prompt> again", l.Text)

	m = control.NewNextMatcher(4, true, untilLine(prompt))
	m.StaleAt(nil)
	_, ok = m.Find(answer(5, []jobs.Line{line(5, "prompt> first")}))
	assert.True(t, ok, "no line was being written: the first line after the cursor counts")

	// A line being written that does not match yet counts once complete.
	m = control.NewNextMatcher(4, true, untilLine(regexp.MustCompile(`done`)))
	m.StaleAt([]jobs.Line{line(0, "Working...")})
	_, ok = m.Find(answer(5, []jobs.Line{line(5, "Working... done")}))
	assert.True(t, ok, "Working... done")

	m = control.NewNextMatcher(4, false, untilLine(prompt))
	_, ok = m.Find(answer(4, nil, shown...))
	assert.True(t, ok, "without --cursor the prompt shown counts")
}
