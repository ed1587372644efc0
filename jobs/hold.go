package jobs

import (
	"sync/atomic"
	"time"
)

// holdFor is how long HoldOutput holds readers back: a frame (17 ms at
// 60 frames a second) and the terminal drawing it.
const holdFor = 25 * time.Millisecond

// outputHold is a moment in which readers wait before reading more.
type outputHold struct {
	until atomic.Int64 // UnixNano before which readers wait
	next  atomic.Int64 // UnixNano before which no new hold is taken
}

// HoldOutput holds back the reading of jobs' output for a moment
// (holdFor), so that the frame answering a person's key or click is drawn
// while jobs writing flat out do not take the CPU from it: on a small
// machine a hundred such jobs otherwise delay that frame by a hundred
// milliseconds and more. A job typed into within the echo window is not
// held (its echo is the answer), and holds take at most half of any
// stretch of time, however fast keys come. Nothing is lost: a held job's
// output waits in its pipe or terminal, and a writer that fills it waits
// as it would for any slower reader.
func (m *Manager) HoldOutput() { m.hold.take(time.Now().UnixNano()) }

// take starts a hold at now, unless the last one was too recent.
func (h *outputHold) take(now int64) {
	if now < h.next.Load() {
		return
	}
	h.until.Store(now + int64(holdFor))
	h.next.Store(now + 2*int64(holdFor))
}

// left is how long a reader of a job last typed into at typedAt
// (UnixNano, 0 for never) waits at now.
func (h *outputHold) left(now, typedAt int64) time.Duration {
	until := h.until.Load()
	if now >= until || typedAt != 0 && now-typedAt < int64(echoWindow) {
		return 0
	}
	return time.Duration(until - now)
}

// waitHold waits out a hold before a reader of j reads again.
func (m *Manager) waitHold(j *job) {
	if d := m.hold.left(time.Now().UnixNano(), j.typedAt.Load()); d > 0 {
		time.Sleep(d)
	}
}
