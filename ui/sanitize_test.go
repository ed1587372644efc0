package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"jobtop/styles"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text", "hello world", "hello world"},
		{"SGR colour kept", "\x1b[31mred\x1b[0m ok", "\x1b[31mred\x1b[0m ok"},
		{"SGR 256 and truecolour kept", "\x1b[38;5;208mo\x1b[38:2::1:2:3mt\x1b[m", "\x1b[38;5;208mo\x1b[38:2::1:2:3mt\x1b[m"},
		{"clear screen", "a\x1b[2Jb", "ab"},
		{"cursor home", "\x1b[Hx", "x"},
		{"cursor position", "\x1b[10;20Hx", "x"},
		{"erase line", "x\x1b[K", "x"},
		{"OSC 0 title BEL", "\x1b]0;pwned\x07text", "text"},
		{"OSC 2 title ST", "\x1b]2;pwned\x1b\\text", "text"},
		{"OSC 52 clipboard", "a\x1b]52;c;ZWNobyBoaQ==\x07b", "ab"},
		{"OSC 8 hyperlink", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"alt screen DECSET", "\x1b[?1049hx\x1b[?1049l", "x"},
		{"hide cursor", "\x1b[?25lx", "x"},
		{"DSR query", "a\x1b[6nb", "ab"},
		{"DA query", "a\x1b[cb\x1b[>cc", "abc"},
		{"DECRQSS in DCS", "a\x1bP$qm\x1b\\b", "ab"},
		{"APC", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"PM and SOS", "a\x1b^pm\x1b\\b\x1bXsos\x1b\\c", "abc"},
		{"private SGR-like (modifyOtherKeys)", "a\x1b[>4;2mb", "ab"},
		{"SGR with intermediate", "a\x1b[1 mb", "ab"},
		{"reset terminal ESC c", "a\x1bcb", "ab"},
		{"reset terminal ends colours", "\x1b[31ma\x1bcb", "\x1b[31ma\x1b[0mb"},
		{"soft reset ends colours", "\x1b[1ma\x1b[!pb", "\x1b[1ma\x1b[0mb"},
		{"save cursor ESC 7", "a\x1b7b\x1b8", "ab"},
		{"DECALN ESC # 8", "a\x1b#8b", "ab"},
		{"charset ESC ( 0", "a\x1b(0b", "ab"},
		{"bare ESC at end", "abc\x1b", "abc"},
		{"bare ESC before control", "a\x1b\x01b", "ab"},
		{"unterminated CSI", "a\x1b[31", "a"},
		{"unterminated OSC", "a\x1b]0;title", "a"},
		{"8-bit CSI", "a\x9b2Jb", "ab"},
		{"8-bit OSC", "a\x9d0;t\x9cb", "ab"},
		{"8-bit C1 alone", "a\x85\x8db", "ab"},
		{"UTF-8 encoded C1 CSI", "a\u009b2Jb", "ab"},
		{"UTF-8 encoded NEL", "a\u0085b", "ab"},
		{"C0 controls", "a\x07\x08b\x00c\x0e\x7f", "abc"},
		{"carriage return and newline", "a\rb\nc", "abc"},
		{"tab at start", "\tx", "        x"},
		{"tab mid", "ab\tc", "ab      c"},
		{"tab after colour counts cells", "\x1b[1mab\x1b[0m\tc", "\x1b[1mab\x1b[0m      c"},
		{"tab after wide char", "日\tx", "日      x"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"wide and combining kept", "日本 e\u0301", "日本 e\u0301"},
		{"absurd SGR dropped", "a\x1b[" + strings.Repeat("1;", 40) + "1mb", "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, sanitize(tt.in, true))
			require.Equal(t, ansi.Strip(tt.want), sanitize(tt.in, false), "without SGR")
		})
	}
}

func TestLayoutLineCut(t *testing.T) {
	rows := layoutLine(nil, "0123456789abcdef", lineFormat{width: 10})
	require.Equal(t, []string{"0123456789"}, rows)

	rows = layoutLine(nil, "\x1b[32mgreen text that is long\x1b[0m", lineFormat{width: 5, keepSGR: true})
	require.Equal(t, []string{"\x1b[32mgreen" + sgrReset}, rows)

	rows = layoutLine(nil, "日本語", lineFormat{width: 5})
	require.Equal(t, []string{"日本"}, rows, "a wide character that does not fit is cut whole")

	rows = layoutLine(nil, "", lineFormat{width: 5})
	require.Equal(t, []string{""}, rows)
}

func TestLayoutLineWrap(t *testing.T) {
	rows := layoutLine(nil, "0123456789abcdef", lineFormat{width: 6, wrap: true})
	require.Equal(t, []string{"012345", "6789ab", "cdef"}, rows)

	rows = layoutLine(nil, "0123456789abcdef", lineFormat{width: 6, wrap: true, maxRows: 2})
	require.Equal(t, []string{"012345", "6789ab"}, rows)

	// Colours carry over to the next row and every row closes its own.
	rows = layoutLine(nil, "ab\x1b[31mcdef\x1b[0mgh", lineFormat{width: 4, wrap: true, keepSGR: true})
	require.Equal(t, []string{
		"ab\x1b[31mcd" + sgrReset,
		"\x1b[31mef\x1b[0mgh",
	}, rows)

	rows = layoutLine(nil, "日本語", lineFormat{width: 5, wrap: true})
	require.Equal(t, []string{"日本", "語"}, rows)

	for _, r := range layoutLine(nil, strings.Repeat("x\t日\x1b[1m", 50), lineFormat{width: 7, wrap: true, keepSGR: true}) {
		require.LessOrEqual(t, ansi.StringWidth(r), 7)
	}
}

func TestLayoutLineBaseStyle(t *testing.T) {
	tint := styles.Seq{Open: "\x1b[33m", Close: sgrReset}
	rows := layoutLine(nil, "warn \x1b[1mbold\x1b[0m tail", lineFormat{width: 40, keepSGR: true, base: tint})
	require.Equal(t, []string{"\x1b[33mwarn \x1b[1mbold\x1b[0m\x1b[33m tail" + sgrReset}, rows)
}

func TestLabelShowsLineBreaks(t *testing.T) {
	require.Equal(t, "printf a ⏎ sleep 1 ⏎ printf  b", label("printf a\n  sleep 1\nprintf  b\n"))
	require.Equal(t, "make -j8", label("make -j8"))
	require.Equal(t, "evil", label("\x1b]0;title\x07evil"))
}
