package jobs

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mixedStore holds out1, err2, out3, ... err10 (odd lines on stdout) and a
// partial line on each stream.
func mixedStore(t *testing.T) *OutputStore {
	s := NewOutputStore(StoreOptions{})
	for i := 1; i <= 10; i++ {
		if i%2 == 1 {
			s.Append(Stdout, []byte(fmt.Sprintf("out%d\n", i)))
		} else {
			s.Append(Stderr, []byte(fmt.Sprintf("err%d\n", i)))
		}
	}
	s.Append(Stdout, []byte("building"))
	s.Append(Stderr, []byte("warn"))
	return s
}

func TestSelect(t *testing.T) {
	s := mixedStore(t)
	cases := []struct {
		name    string
		sel     Selection
		lines   []string
		next    uint64
		more    bool
		partial []string
	}{
		{"after a cursor", Selection{After: 7}, []string{"err8", "out9", "err10"}, 10, false, nil},
		{"max cuts and says more", Selection{After: 2, Max: 3}, []string{"out3", "err4", "out5"}, 5, true, nil},
		{"stream passes over the others", Selection{After: 0, Streams: StreamsOf(Stderr), Max: 2}, []string{"err2", "err4"}, 5, true, nil},
		{"stream to the end moves past the rest", Selection{After: 8, Streams: StreamsOf(Stdout)}, []string{"out9"}, 10, false, nil},
		{"stream with nothing left after the cut", Selection{After: 6, Streams: StreamsOf(Stdout), Max: 2}, []string{"out7", "out9"}, 10, false, nil},
		{"tail", Selection{Tail: 3}, []string{"err8", "out9", "err10"}, 10, false, nil},
		{"tail of one stream", Selection{Tail: 2, Streams: StreamsOf(Stdout)}, []string{"out7", "out9"}, 10, false, nil},
		{"tail cut by max", Selection{Tail: 4, Max: 2}, []string{"out7", "err8"}, 8, true, nil},
		{"bytes cut before the line that does not fit", Selection{MaxBytes: 9}, []string{"out1", "err2"}, 2, true, nil},
		{"a first line too big returns nothing, and more", Selection{MaxBytes: 3}, nil, 0, true, nil},
		{"partials of the asked stream", Selection{After: 10, Streams: StreamsOf(Stderr), Partial: true}, nil, 10, false, []string{"warn"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := s.Select(tc.sel)
			assert.Equal(t, tc.lines, nilIfEmpty(texts(c.Lines)))
			assert.Equal(t, tc.next, c.Next, "next")
			assert.Equal(t, tc.more, c.More, "more")
			assert.Equal(t, tc.partial, nilIfEmpty(texts(c.Partial)))
			for _, l := range c.Lines {
				assert.Equal(t, fmt.Sprint(l.Seq), l.Text[3:], "seq matches the text")
			}
		})
	}
}

func TestSelectByArrival(t *testing.T) {
	s := mixedStore(t)
	all := s.ReadAfter(0, 0).Lines
	require.Len(t, all, 10)
	a3, a7 := all[2].Arrival, all[6].Arrival
	c := s.Select(Selection{ArrivalAfter: a3, ArrivalUpTo: a7})
	assert.Equal(t, []string{"err4", "out5", "err6", "out7"}, texts(c.Lines))
	assert.Equal(t, uint64(7), c.Next)
	assert.False(t, c.More, "lines after the arrival bound are not more of this read")
	assert.Equal(t, 4, s.CountArrived(a3, a7))
	assert.Equal(t, 7, s.CountArrived(a3, 0))
	assert.Equal(t, 0, s.CountArrived(all[9].Arrival, 0))
	assert.Equal(t, 2, s.CountArrivedIn(a3, a7, StreamsOf(Stderr), 0), "err4, err6")
	assert.Equal(t, 2, s.CountArrivedIn(a3, a7, StreamsOf(Stdout), 0), "out5, out7")
	assert.Equal(t, 2, s.CountArrivedIn(a3, 0, StreamsOf(Stderr), 1), "past the limit, it stops counting")
	assert.Equal(t, 7, s.CountArrivedIn(a3, 0, 0, 1), "all streams: counted at once")

	c = s.Select(Selection{After: 5, ArrivalAfter: a3})
	assert.Equal(t, "err6", c.Lines[0].Text, "the later of cursor and arrival wins")
}

func TestSelectReportsDropped(t *testing.T) {
	s := NewOutputStore(StoreOptions{MaxLines: 100})
	for i := 1; i <= 250; i++ {
		s.Append(Stdout, []byte(fmt.Sprintf("line %d\n", i)))
	}
	c := s.Select(Selection{After: 10, Max: 1})
	assert.Equal(t, uint64(140), c.Dropped)
	assert.Equal(t, []string{"line 151"}, texts(c.Lines))
	c = s.Select(Selection{After: 10, Tail: 1})
	assert.Zero(t, c.Dropped, "a tail does not count drops")
	assert.Equal(t, []string{"line 250"}, texts(c.Lines))
}
