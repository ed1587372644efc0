package termtext

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnfinished(t *testing.T) {
	link := "\x1b]8;;https://example.com/a/rather/long/path/that/goes/past/sixty-four/bytes?q=1\x1b\\"
	for in, want := range map[string]int{
		"":                           0,
		"abc":                        3,
		"ab\x1b":                     2,
		"ab\x1b[":                    2,
		"ab\x1b[3":                   2,
		"ab\x1b[33m":                 7,
		"ab\x1b[33;":                 2,
		"ab\x1b[?25":                 2,
		"ab\x1b[ ":                   2, // an intermediate, the final to come
		"ab\x1b[3\x01":               6, // ended early, as Next reads it
		"ab\x1b]0;ti":                2,
		"ab\x1b]0;t\a":               8,
		"ab\x1b]0;t\x1b":             2, // ST half written
		"ab\x1b]0;t\x1b\\":           9,
		"ab\x1b]0;t\xc2":             2, // ST as UTF-8, half written
		"ab\x1bPq#0;1\x1b\\z":        12,
		"ab\x1b(":                    2,
		"ab\x1b(B":                   5,
		"ab\x1bc":                    4,
		"\x1b[31mx\x1b[0":            6,
		link:                         len(link),
		link[:70]:                    0,
		"x" + link[:len(link)-1]:     1,
		"ab\u009b3":                  2, // C1 CSI as UTF-8
		"ab\x9b3":                    2, // raw
		"ab\x9d0;t":                  2,
		"ab\u009b3m":                 6,
		"ab\xc3":                     2, // é half written
		"ab\xc3\xa9":                 4,
		"ab\xe6\x97":                 2, // 日, two of three
		"ab\xe6":                     2,
		"ab\xf0\x9f\x98":             2, // 😀, three of four
		"ab\xff":                     3, // never UTF-8
		"ab\xc3x":                    4, // not UTF-8, nothing to come
		"ab\xa9":                     3, // a continuation on its own
		"ab\x1b]8;;u\x1b\\日\x1b[33m": 18,
	} {
		assert.Equal(t, want, Unfinished(in), "%q", in)
	}
	// past eight bytes of plain text a time
	for n := range 20 {
		x := strings.Repeat("x", n)
		for tail, open := range map[string]int{"\x1b[33": 0, "\xe6\x97": 0, "\u009b3": 0, "\x7f\x1b": 1, "\x1b[33m": -1, "日": -1} {
			want := n + open
			if open < 0 {
				want = len(x + tail + x)
				tail += x
			}
			assert.Equal(t, want, Unfinished(x+tail), "%d, %q", n, tail)
		}
	}
}

func TestPen(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                          "",
		"\x1b[33myellow":                 "\x1b[33m",
		"\x1b[33m\x1b[1mbold":            "\x1b[1;33m",
		"\x1b[33mx\x1b[0my":              "",
		"\x1b[33mx\x1b[my":               "",
		"\x1b[33mx\x1b[?25lx":            "\x1b[33m",
		"\x1b]0;\x1b[31m\a\x1b[32mx":     "\x1b[32m", // none from inside a title
		"\x1b[33mx\x1b[4":                "\x1b[33m", // unfinished: not yet in effect
		"\x1b[31m\x1b]8;;u\x1b\\link":    "\x1b[31m",
		"\x1b[31mx\x1b[39m":              "", // closed by its own code, as chalk does
		"\x1b[1m\x1b[31mx\x1b[39m":       "\x1b[1m",
		"\x1b[4:3mx\x1b[24m":             "\x1b[4:3m\x1b[24m", // not followed: kept
		"\x1b[38;5;208mx\x1b[39m":        "",
		"\x1b[48;2;1;2;3mx\x1b[38;5":     "\x1b[48;2;1;2;3m", // unfinished: not yet in effect
		"\x1b[1;48;2;1;2;3mx\x1b[22;49m": "",
	} {
		assert.Equal(t, want, Pen(in), "%q", in)
	}
}

// TestPenOfClosedColoursAllocatesNothing: a line whose colours are all
// closed (most coloured output: a green tick, then its text) costs Pen
// one pass and no allocation.
func TestPenOfClosedColoursAllocatesNothing(t *testing.T) {
	line := "\x1b[32m✓\x1b[39m \x1b[1mok\x1b[22m \x1b[2m(12 ms)\x1b[22m " + strings.Repeat("x", 60)
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = Pen(line) }))
	assert.Empty(t, Pen(line))
}

// TestUnfinishedQuickWayAgrees: the quick way through valid UTF-8 says
// what reading every sequence and character says.
func TestUnfinishedQuickWayAgrees(t *testing.T) {
	alphabet := []string{"x", "\x1b", "[", "3", "m", "]", "\a", "\\", "\xc2", "\x9b", "\x9c", "\xe6", "\x97", "\xa5", "\xf0", "\x9f", "\x98", "\x80", "\xff", "日", "😀", "é"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		require.Equal(t, scanUnfinished(s), Unfinished(s), "%q", s)
	}
}
