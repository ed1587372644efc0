package ui

import (
	"math/rand/v2"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The renderer measures each changed line with tea.LineWidth (jobtop's,
// in third_party/bubbletea): it must say what ansi.StringWidth says.

func TestLineWidthCountsEveryBoxAndBlockAsOneCell(t *testing.T) {
	for r := rune(0x2400); r < 0x2700; r++ {
		s := "a" + string(r) + "\x1b[31mb"
		require.Equal(t, ansi.StringWidth(s), tea.LineWidth(s), "U+%04X", r)
	}
	line := "│\x1b[38;5;208m┌ fullscreen ─────┐\x1b[m ▀▄█░ │"
	assert.Equal(t, ansi.StringWidth(line), tea.LineWidth(line))
	assert.Equal(t, 27, tea.LineWidth(line))
}

// lineWidthPieces are what random lines are made of: the fast path's own
// pieces, and what must send a line to ansi.StringWidth (clusters that
// join, wide and zero-width characters, other escapes, cut sequences).
var lineWidthPieces = []string{
	"a", "Z", " ", "~", "│", "─", "▀", "█", "\u2590", "\u259f", "\u25a0",
	"\x1b[m", "\x1b[38;5;208m", "\x1b[1;31;4$m", "\x1b[?25l", "\x1b[K", "\x1b[", "\x1b[3", "\x1b[31",
	"\x1b", "\x1b]8;;https://x\x1b\\", "\x1b]0;t\a", "\x1bP1$r\x1b\\", "\x1b(0",
	"\u0301", "\u200d", "\ufe0f", "\U0001F468\u200d\U0001F469", "\U0001F1EF\U0001F1F5", "界", "é", "e\u0301",
	"\t", "\x7f", "\x00", "\r", "\xe2", "\xe2\x94", "\xff",
}

func TestLineWidthAgreesWithAnsiStringWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(lineWidthPieces[rng.IntN(len(lineWidthPieces))])
		}
		s := b.String()
		require.Equal(t, ansi.StringWidth(s), tea.LineWidth(s), "%q", s)
	}
}

func FuzzLineWidth(f *testing.F) {
	for _, p := range lineWidthPieces {
		f.Add("ab" + p + "│c")
	}
	f.Fuzz(func(t *testing.T, s string) {
		if w := ansi.StringWidth(s); tea.LineWidth(s) != w {
			t.Fatalf("LineWidth(%q) = %d, ansi.StringWidth %d", s, tea.LineWidth(s), w)
		}
	})
}
