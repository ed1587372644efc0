package jobs

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func texts(lines []Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

func TestStoreSplitsLines(t *testing.T) {
	cases := []struct {
		name    string
		writes  []string
		lines   []string
		partial []string
	}{
		{"one line", []string{"hello\n"}, []string{"hello"}, nil},
		{"no newline is partial", []string{"hel", "lo"}, nil, []string{"hello"}},
		{"split across writes", []string{"ab", "c\nde", "f\n"}, []string{"abc", "def"}, nil},
		{"crlf ends a line", []string{"a\r\nb\r\n"}, []string{"a", "b"}, nil},
		{"crlf split across writes", []string{"a\r", "\nb\n"}, []string{"a", "b"}, nil},
		{"cr rewrites the line", []string{"10%\r20%\r30%\n"}, []string{"30%"}, nil},
		{"cr rewrite across writes", []string{"10%\r", "20%\r", "30%"}, nil, []string{"30%"}},
		{"lone cr keeps text until more comes", []string{"building\r"}, nil, []string{"building"}},
		{"double cr before newline", []string{"abc\r\r\n"}, []string{"abc"}, nil},
		{"leading cr progress", []string{"\r 1/3", "\r 2/3", "\r 3/3\n"}, []string{" 3/3"}, nil},
		{"empty lines", []string{"\n\n"}, []string{"", ""}, nil},
		{"nul and invalid utf-8 pass", []string{"a\x00b\xff\xfe\n"}, []string{"a\x00b\xff\xfe"}, nil},
		{"escapes are stored as written", []string{"\x1b[31mred\x1b[0m\x1b[2J\n"}, []string{"\x1b[31mred\x1b[0m\x1b[2J"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewOutputStore(StoreOptions{})
			for _, w := range tc.writes {
				s.Append(Stdout, []byte(w))
			}
			c := s.ReadAfter(0, 0)
			assert.Equal(t, tc.lines, nilIfEmpty(texts(c.Lines)))
			assert.Equal(t, tc.partial, nilIfEmpty(texts(c.Partial)))
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestStoreStreamsKeepSeparatePartials(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.Append(Stdout, []byte("out-"))
	s.Append(Stderr, []byte("err line\n"))
	s.Append(Stdout, []byte("done\n"))
	c := s.ReadAfter(0, 0)
	require.Len(t, c.Lines, 2)
	assert.Equal(t, Line{Seq: 1, Stream: Stderr, Text: "err line", Arrival: c.Lines[0].Arrival}, c.Lines[0])
	assert.Equal(t, Line{Seq: 2, Stream: Stdout, Text: "out-done", Arrival: c.Lines[1].Arrival}, c.Lines[1])
	assert.NotZero(t, c.Lines[0].Arrival)
	assert.Less(t, c.Lines[0].Arrival, c.Lines[1].Arrival, "the line committed first arrived first")
}

// TestStorePartialRedrawn: a partial line a "\r" went back over is
// marked Redrawn (a follower draws it over, or waits for its end), until
// its line ends; a line begun afresh is not.
func TestStorePartialRedrawn(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	redrawn := func() []bool {
		var r []bool
		for _, l := range s.ReadAfter(0, 0).Partial {
			r = append(r, l.Redrawn)
		}
		return r
	}
	s.Append(Stdout, []byte("get "))
	assert.Equal(t, []bool{false}, redrawn(), "a prompt")
	s.Append(Stdout, []byte("\r 0%"))
	assert.Equal(t, []bool{true}, redrawn())
	s.Append(Stdout, []byte("\r 5%\r"))
	assert.Equal(t, []bool{true}, redrawn())
	s.Append(Stdout, []byte("\rdone\na"))
	assert.Equal(t, []bool{false}, redrawn(), "the next line")
	s.Append(Stdout, []byte("\n\r 0%"))
	assert.Equal(t, []bool{true}, redrawn())
	s.Append(Stdout, []byte("\n"))
	s.Append(Stdout, []byte("b"))
	assert.Equal(t, []bool{false}, redrawn())
	s.Append(Stdout, []byte("\n \x1b[1m0%\r\x1b[1m5%\r\x1b[1mdone\nc"))
	assert.Equal(t, []bool{false}, redrawn())
}

func TestStoreCapsLineLength(t *testing.T) {
	s := NewOutputStore(StoreOptions{MaxLineBytes: 4})
	s.Append(Stdout, []byte("abcdefghij"))
	c := s.ReadAfter(0, 0)
	assert.Equal(t, []string{"abcd", "efgh"}, texts(c.Lines))
	assert.Equal(t, []string{"ij"}, texts(c.Partial))
	s.Append(Stdout, []byte("klmnopq\n"))
	c = s.ReadAfter(c.Next, 0)
	assert.Equal(t, []string{"ijkl", "mnop", "q"}, texts(c.Lines))
}

func TestStoreTenMegabyteLineWithoutNewline(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	big := strings.Repeat("x", 10<<20)
	for i := 0; i < len(big); i += 64 << 10 {
		s.Append(Stdout, []byte(big[i:min(i+64<<10, len(big))]))
	}
	pieces := 10 << 20 / DefaultMaxLineBytes
	st := s.Stats()
	assert.Equal(t, uint64(pieces-1), st.Last, "a long run is split into capped lines")
	c := s.Tail(1)
	require.Len(t, c.Lines, 1)
	assert.Len(t, c.Lines[0].Text, DefaultMaxLineBytes)
	require.Len(t, c.Partial, 1, "the last piece is still the line being built")
	assert.Len(t, c.Partial[0].Text, DefaultMaxLineBytes)
}

func TestStoreEvictsOldestAndCountsDrops(t *testing.T) {
	s := NewOutputStore(StoreOptions{MaxLines: 100})
	for i := 1; i <= 250; i++ {
		s.Append(Stdout, []byte(fmt.Sprintf("line %d\n", i)))
	}
	st := s.Stats()
	assert.Equal(t, StoreStats{First: 151, Last: 250, Dropped: 150, Bytes: st.Bytes, Retained: 100, Text: 800, Memory: st.Memory}, st)

	c := s.ReadAfter(0, 10)
	assert.Equal(t, uint64(150), c.Dropped, "lines 1-150 are gone")
	assert.Equal(t, "line 151", c.Lines[0].Text)
	assert.Equal(t, uint64(160), c.Next)

	c = s.ReadAfter(c.Next, 0)
	assert.Zero(t, c.Dropped)
	assert.Len(t, c.Lines, 90)
	assert.Equal(t, uint64(250), c.Next)

	c = s.ReadAfter(250, 0)
	assert.Empty(t, c.Lines)
	assert.Equal(t, uint64(250), c.Next, "nothing new: cursor stays")
}

func TestStoreByteBound(t *testing.T) {
	s := NewOutputStore(StoreOptions{MaxBytes: 1000, MaxLineBytes: 100})
	line := strings.Repeat("y", 99) + "\n"
	for i := 0; i < 100; i++ {
		s.Append(Stdout, []byte(line))
	}
	st := s.Stats()
	assert.Equal(t, 10, st.Retained, "1000 bytes hold ten 99-byte lines")
	assert.Equal(t, uint64(90), st.Dropped)
}

func TestStoreTail(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.Append(Stdout, []byte("a\nb\nc\nd"))
	c := s.Tail(2)
	assert.Equal(t, []string{"b", "c"}, texts(c.Lines))
	assert.Equal(t, []string{"d"}, texts(c.Partial))
	assert.Equal(t, uint64(3), c.Next)
	assert.Equal(t, "d", s.LastLine())
	s.Flush()
	assert.Equal(t, []string{"c", "d"}, texts(s.Tail(2).Lines))
}

func TestStoreMetaLineCommitsPartials(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.Append(Stdout, []byte("unfinished"))
	s.AppendMeta("── run 2 ──")
	c := s.ReadAfter(0, 0)
	require.Len(t, c.Lines, 2)
	assert.Equal(t, "unfinished", c.Lines[0].Text)
	assert.Equal(t, Meta, c.Lines[1].Stream)
	assert.Empty(t, c.Partial)
}

// TestStoreConcurrentReaders checks that readers with their own cursors,
// reading while a writer appends and the store wraps, each see every line
// exactly once or a dropped count for it: no duplicate, no silent gap.
func TestStoreConcurrentReaders(t *testing.T) {
	const total = 50_000
	s := NewOutputStore(StoreOptions{MaxLines: 500})
	var wg sync.WaitGroup
	results := make([]struct{ seen, dropped uint64 }, 3)
	for r := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var cursor uint64
			for {
				c := s.ReadAfter(cursor, 64)
				for i, l := range c.Lines {
					want := cursor + c.Dropped + uint64(i) + 1
					if l.Seq != want || l.Text != fmt.Sprint(l.Seq) {
						t.Errorf("reader %d: got seq %d %q, want seq %d", r, l.Seq, l.Text, want)
						return
					}
				}
				results[r].seen += uint64(len(c.Lines))
				results[r].dropped += c.Dropped
				cursor = c.Next
				if cursor == total {
					return
				}
				if len(c.Lines) == 0 {
					runtime.Gosched()
				}
			}
		}()
	}
	for i := 1; i <= total; i++ {
		s.Append(Stdout, []byte(fmt.Sprintf("%d\n", i)))
	}
	wg.Wait()
	for r, res := range results {
		assert.Equal(t, uint64(total), res.seen+res.dropped, "reader %d accounts for every line", r)
	}
}

func FuzzStoreAppend(f *testing.F) {
	f.Add([]byte("a\r\nb\rc\n"), uint8(3))
	f.Add([]byte("\x00\xff\r\r\n\n"), uint8(1))
	f.Add([]byte("ab\x1b[31mcd\rx\b\x1b[K\n"), uint8(0x81))
	f.Fuzz(func(t *testing.T, data []byte, split uint8) {
		s := NewOutputStore(StoreOptions{MaxLines: 8, MaxLineBytes: 5, MaxBytes: 20})
		if split&0x80 != 0 { // a terminal's: line edits played, "\r" by rows
			s.SetTerminal(true, int(split%3)+1)
		}
		step := int(split%7) + 1
		for i := 0; i < len(data); i += step {
			s.Append(Stream(i%2), data[i:min(i+step, len(data))])
		}
		c := s.ReadAfter(0, 0)
		st := s.Stats()
		if uint64(len(c.Lines))+c.Dropped != st.Last {
			t.Fatalf("lines %d + dropped %d != last %d", len(c.Lines), c.Dropped, st.Last)
		}
		for _, l := range append(c.Lines, c.Partial...) {
			if len(l.Text) > 5 || strings.ContainsAny(l.Text, "\r\n") {
				t.Fatalf("bad line %q", l.Text)
			}
		}
		for i := 1; i < len(c.Lines); i++ {
			if c.Lines[i].Arrival <= c.Lines[i-1].Arrival {
				t.Fatalf("arrival %d after %d", c.Lines[i].Arrival, c.Lines[i-1].Arrival)
			}
		}
		if st.Memory > memoryBound(s) {
			t.Fatalf("memory %d past the bound %d", st.Memory, memoryBound(s))
		}
	})
}

// TestReadLinesSurviveSlabReuse reads lines, then writes enough for their
// slabs to be evicted and reused: what was read must not change.
func TestReadLinesSurviveSlabReuse(t *testing.T) {
	s := NewOutputStore(StoreOptions{MaxLines: 100})
	write := func(prefix string, n int) {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%s %04d %s\n", prefix, i, strings.Repeat("x", 60))
		}
		s.Append(Stdout, []byte(b.String()))
	}
	for i := 0; i < 50; i++ { // grow the slabs to their full size
		write("warm-up", 1000)
	}
	write("first", 100)
	read := s.ReadAfter(0, 0).Lines
	tail := s.Tail(1).Lines[0]
	last := s.LastLine()
	var want []string // deep copies, to compare against later
	for _, l := range read {
		want = append(want, strings.Clone(l.Text))
	}
	for i := 0; i < 200; i++ { // ~100 MiB through 1 MiB slabs
		write("later", 1000)
	}
	assert.Equal(t, want, texts(read))
	assert.Equal(t, want[99], tail.Text)
	assert.Equal(t, want[99], last)
	assert.Equal(t, uint64(250_000), s.Stats().Dropped, "the first lines are long gone")
}

// TestFirehoseAppendAllocatesNothing: once a store is full and its slabs
// are recycled, appending a chunk of whole lines allocates nothing.
func TestFirehoseAppendAllocatesNothing(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	chunk := []byte(strings.Repeat(line80+"\n", 800)) // 64 KB
	for i := 0; i < 2000; i++ {
		s.Append(Stdout, chunk)
	}
	allocs := testing.AllocsPerRun(200, func() { s.Append(Stdout, chunk) })
	assert.Zero(t, allocs)
}

// TestTerminalCarriageReturnFloodStaysOneLine: a terminal's progress bar
// redrawn with "\r" a hundred thousand times, no newline, keeps one line
// being built no longer than what it shows (each "\r" compacts it).
func TestTerminalCarriageReturnFloodStaysOneLine(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.SetTerminal(true, 80)
	for i := range 100_000 {
		s.Append(Stdout, []byte(fmt.Sprintf("\rprogress %6d", i)))
	}
	c := s.ReadAfter(0, 0)
	require.Empty(t, c.Lines, "no line was committed")
	require.Len(t, c.Partial, 1)
	assert.Equal(t, "progress  99999", c.Partial[0].Text)
	assert.Less(t, s.Stats().Memory, int64(64<<10), "the line being built stays small")
}

// TestCarriageReturnKeepsTheColours: a pipe job's progress bar redrawn
// after "\r" is a new line in the colours in effect, as a terminal draws
// the next frame; a reset before the "\r" leaves none. The yellow of the
// first line, never reset, is still in effect on the second (FAIL is
// yellow on red there, as on a terminal).
func TestCarriageReturnKeepsTheColours(t *testing.T) {
	s := NewOutputStore(StoreOptions{})
	s.Append(Stdout, []byte("\x1b[33m[##   ] 40%\r[###  ] 60%\n"))
	s.Append(Stdout, []byte("\x1b[1m\x1b[41m\x1b[K\rFAIL\x1b[0m\n"))
	s.Append(Stdout, []byte("\x1b[32mok\x1b[0m\rplain\n"))
	assert.Equal(t, []string{"\x1b[33m[###  ] 60%", "\x1b[1;33;41mFAIL\x1b[0m", "plain"}, texts(s.ReadAfter(0, 0).Lines))
}

// TestCarriageReturnKeepsAColourSetLongAgo: a background set once under
// a progress bar whose colour changes at every frame is still in effect
// at its last frame, on pipes and on a terminal.
func TestCarriageReturnKeepsAColourSetLongAgo(t *testing.T) {
	for _, tty := range []bool{false, true} {
		s := NewOutputStore(StoreOptions{})
		s.SetTerminal(tty, 80)
		in := "\x1b[44m"
		for i := range 40 {
			in += fmt.Sprintf("\x1b[3%dmframe %02d\r", i%7+1, i)
		}
		s.Append(Stdout, []byte(in+"FINAL\x1b[0m\n"))
		line := texts(s.ReadAfter(0, 0).Lines)[0]
		assert.Contains(t, line, "44", "tty %v: %q", tty, line)
		assert.LessOrEqual(t, len(line), 128+len("FINAL 39")+16, "tty %v: %q", tty, line)
	}
}

// TestStoreMetaLinesAreNotTheJobs: a meta line (a restart's marker) is
// held and read like any line, but is neither the last line nor counted
// as the job's.
func TestStoreMetaLinesAreNotTheJobs(t *testing.T) {
	s := NewOutputStore(StoreOptions{MaxLines: 3})
	s.AppendMeta("── run 2 ──")
	assert.Equal(t, "", s.LastLine(), "no line of the job yet")
	st := s.Stats()
	assert.Equal(t, uint64(1), st.Last)
	assert.Equal(t, uint64(1), st.Meta, "jobtop's line, counted apart")
	s.Append(Stdout, []byte("mine\n"))
	s.AppendMeta("── run 3 ──")
	assert.Equal(t, "mine", s.LastLine(), "the newest line the job wrote, of an earlier run")
	assert.Equal(t, []string{"── run 2 ──", "mine", "── run 3 ──"}, texts(s.Tail(3).Lines))
	s.Append(Stderr, []byte("part"))
	assert.Equal(t, "part", s.LastLine())
	s.Flush()
	s.AppendMeta("── run 4 ──")
	s.AppendMeta("── run 5 ──")
	s.AppendMeta("── run 6 ──")
	assert.Equal(t, "", s.LastLine(), "the job's newest line is no longer held")
	st = s.Stats()
	assert.Equal(t, uint64(7), st.Last)
	assert.Equal(t, uint64(5), st.Meta, "the job wrote 2 of the 7 lines, held or dropped")
}
