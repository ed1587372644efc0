package jobs

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestAHoldPausesReadersButNotAnEcho(t *testing.T) {
	var h outputHold
	now := time.Now().UnixNano()
	assert.Zero(t, h.left(now, 0), "no hold taken")

	h.take(now)
	assert.Equal(t, holdFor, h.left(now, 0), "a job's reader waits the hold out")
	assert.Equal(t, holdFor/5, h.left(now+int64(holdFor*4/5), 0))
	assert.Zero(t, h.left(now+int64(holdFor), 0), "the hold ends")
	assert.Zero(t, h.left(now, now-int64(echoWindow)/2), "a job typed into just now is not held: its echo is the answer")
	assert.Equal(t, holdFor, h.left(now, now-int64(echoWindow)), "one typed into long ago is")
}

func TestHoldsTakeAtMostHalfTheTime(t *testing.T) {
	var h outputHold
	now := time.Now().UnixNano()
	h.take(now)
	h.take(now + int64(holdFor)/2)
	h.take(now + int64(holdFor)*3/2)
	assert.Zero(t, h.left(now+int64(holdFor), 0), "keys within a hold and the pause after it take none")
	h.take(now + 2*int64(holdFor))
	assert.Equal(t, holdFor, h.left(now+2*int64(holdFor), 0), "the next key after the pause does")

	// However fast keys come, at most half of the time is held.
	h = outputHold{}
	held := time.Duration(0)
	const step = int64(time.Millisecond)
	for at := now; at < now+int64(time.Second); at += step {
		h.take(at)
		if h.left(at, 0) > 0 {
			held += time.Millisecond
		}
	}
	assert.LessOrEqual(t, held, 510*time.Millisecond)
	assert.GreaterOrEqual(t, held, 490*time.Millisecond)
}
