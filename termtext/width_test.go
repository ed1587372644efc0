package termtext

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The code points Unicode's width tables count narrower than terminals
// draw them (glibc's wcwidth, tmux 3.3, VTE): jobtop counts them as drawn,
// alone and among other text, so a row padded to the terminal's width
// never wraps.
func TestRuneWidthCountsWhatTerminalsDraw(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
	}{
		{"\u00ad", 1}, // soft hyphen
		{"co\u00adop", 5},
		{"co\u00ad漢", 5},
		{"\u0600", 1}, // Arabic number sign: joins what follows into its cluster
		{"x\u0600y", 3},
		{"x\u0600\u0601\u0602\u0603\u0604\u0605y", 8},
		{"\u06dd1", 2},
		{"\u070f", 1},
		{"\u0890\u0891\u08e2", 3},
		{"\U000110bd\U000110cd", 2},
		{"\u3248", 2}, // circled number ten on a black square
		{"x\u3248y", 4},
		{"\u3248\u3249\u324a\u324b\u324c\u324d\u324e\u324f", 16},
		{"\u3248\u0301", 2},
		// Unchanged: the neighbours of those, and what stays zero.
		{"\u00ac\u00ae", 2},
		{"\u0606\u06dc", 1}, // U+06DC is a combining mark
		{"\u3247\u3250", 4}, // wide by the tables too
		{"e\u0301", 1},
		{"a\u200bb", 2},
	} {
		assert.Equal(t, tc.width, Width(tc.text), "%+q", tc.text)
	}
	assert.Equal(t, 1, RuneWidth(0xad))
	assert.Equal(t, 2, RuneWidth(0x324f))
	assert.Equal(t, 0, RuneWidth(0x200b))
	assert.Equal(t, 0, RuneWidth(0x300))
	assert.Equal(t, 2, RuneWidth('漢'))
}

// No code point is counted narrower than glibc's wcwidth draws it
// (testdata/wcwidth/glibc.txt, glibc 2.36), alone, before ASCII, or
// between other text. Where wcwidth is -1 (unassigned, or not printable:
// tmux 3.3 draws those as nothing) the table's width stands.
func TestRuneWidthIsNeverBelowWcwidth(t *testing.T) {
	spans := readWcwidth(t, "testdata/wcwidth/glibc.txt")
	for r := rune(0xa0); r < 0x110000; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		for len(spans) > 0 && spans[0].to < r {
			spans = spans[1:]
		}
		w := 1
		if len(spans) > 0 && spans[0].from <= r {
			w = spans[0].width
		}
		if w < 0 {
			continue
		}
		s := string(r)
		if RuneWidth(r) < w || Width(s) < w || Width(s+"y")-1 < w || Width("x"+s+"é")-2 < w {
			t.Errorf("U+%04X: glibc's wcwidth %d; RuneWidth %d, alone %d, before y %d, between %d",
				r, w, RuneWidth(r), Width(s), Width(s+"y")-1, Width("x"+s+"é")-2)
		}
	}
}

// span is code points from..to that wcwidth gives the same width.
type span struct {
	from, to rune
	width    int
}

// readWcwidth reads a file of gen.py's: ranges of code points, in order,
// and their wcwidth, those not listed being 1.
func readWcwidth(t *testing.T, name string) []span {
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	var spans []span
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		rng, w, ok := strings.Cut(line, " ")
		require.True(t, ok, line)
		lo, hi, ok := strings.Cut(rng, "..")
		require.True(t, ok, line)
		from, err := strconv.ParseUint(lo, 16, 32)
		require.NoError(t, err, line)
		to, err := strconv.ParseUint(hi, 16, 32)
		require.NoError(t, err, line)
		width, err := strconv.Atoi(w)
		require.NoError(t, err, line)
		require.True(t, len(spans) == 0 || spans[len(spans)-1].to < rune(from), "in order: %s", line)
		spans = append(spans, span{rune(from), rune(to), width})
	}
	require.NoError(t, sc.Err())
	require.Greater(t, len(spans), 1000, "the file lists every code point whose width is not 1")
	return spans
}

// BenchmarkWidth measures a line of text that is mostly not ASCII, every
// cluster of which goes through RuneWidth: box drawing, marks, CJK,
// accents and emoji.
func BenchmarkWidth(b *testing.B) {
	line := strings.Repeat("│ ▸ ● 漢字かな交じり文 café naïve ✓ 👍🏽 ", 4)
	for b.Loop() {
		_ = Width(line)
	}
}
