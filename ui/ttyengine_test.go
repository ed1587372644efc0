package ui

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// slowTerminal takes input only when released, and records what it got.
type slowTerminal struct {
	mu      sync.Mutex
	got     []string
	release chan struct{}
}

func (s *slowTerminal) Input(_ jobs.ID, b []byte) error {
	<-s.release
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, string(b))
	return nil
}

func (s *slowTerminal) Resize(jobs.ID, int, int) error { return nil }

func (s *slowTerminal) received() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// Keys reach the job in the order typed, however slowly it reads; what is
// still queued when the screen closes is dropped, not sent for seconds
// after.
func TestTTYWriterKeepsOrderAndDropsOnClose(t *testing.T) {
	term := &slowTerminal{release: make(chan struct{})}
	w := ttyWriter{engine: term}
	var cmds []func() any
	for _, k := range []string{"a", "b", "c"} {
		cmd := w.input(1, []byte(k))
		cmds = append(cmds, func() any { return cmd() })
	}
	for range 3 {
		term.release <- struct{}{}
	}
	for _, c := range cmds {
		require.Nil(t, c())
	}
	require.Equal(t, []string{"a", "b", "c"}, term.received())

	stuck := w.input(1, []byte("d")) // the job is slow to take it
	late := w.input(1, []byte("e"))
	w.close()
	go func() {
		select {
		case term.release <- struct{}{}: // d, if it was being sent
		case <-time.After(time.Second):
		}
	}()
	done := make(chan any, 2)
	go func() { done <- stuck(); done <- late() }()
	for range 2 {
		select {
		case <-done:
		case <-time.After(deadline):
			t.Fatal("queued input was not dropped on close")
		}
	}
	require.NotContains(t, term.received(), "e", "what was queued behind is dropped")
	require.Nil(t, w.input(1, []byte("f")), "nothing is queued after close")
}
