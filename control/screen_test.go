package control

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// Shown is the rows a terminal shows: blank rows below the last that
// shows something left out, blank rows between kept; a full-screen
// program's visible cursor shows on its row, a hidden one does not; with
// ansi, a row of coloured blanks shows.
func TestScreenShown(t *testing.T) {
	bar := "\x1b[44m    \x1b[m"
	for _, c := range []struct {
		name string
		r    ScreenResponse
		ansi bool
		want []string
	}{
		{"lines, a blank between", ScreenResponse{Lines: []string{"a", "", "b", "", ""}, CursorY: 3, CursorVisible: true}, false, []string{"a", "", "b"}},
		{"line mode: the cursor's row is not shown", ScreenResponse{Lines: []string{"a", "", ""}, CursorY: 2, CursorVisible: true}, false, []string{"a"}},
		{"a program's visible cursor", ScreenResponse{Lines: []string{"top", "", "", ""}, CursorY: 2, CursorVisible: true, Screen: true}, false, []string{"top", "", ""}},
		{"a program's hidden cursor", ScreenResponse{Lines: []string{"top", "", "", ""}, CursorY: 2, Screen: true}, false, []string{"top"}},
		{"a coloured bar, plain", ScreenResponse{Lines: []string{"top", "", ""}, ANSI: []string{"top", "", bar}, Screen: true}, false, []string{"top"}},
		{"a coloured bar, ansi", ScreenResponse{Lines: []string{"top", "", ""}, ANSI: []string{"top", "", bar}, Screen: true}, true, []string{"top", "", bar}},
		{"colours alone show nothing", ScreenResponse{Lines: []string{"top", ""}, ANSI: []string{"top", "\x1b[31m\x1b[m"}}, true, []string{"top"}},
		{"ansi asked, none sent", ScreenResponse{Lines: []string{"top", ""}}, true, []string{"top"}},
		{"blank", ScreenResponse{Lines: []string{"", ""}}, false, []string{}},
	} {
		assert.Equal(t, c.want, c.r.Shown(c.ansi), c.name)
	}
}

// GET .../screen answers every row of the screen, blank ones as "", so
// that lines[cursor_y] is the cursor's row: in line mode and for a
// full-screen program alike.
func TestScreenAnswersEveryRow(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	h := NewServer(newManager(t, socket), Instance{Kind: "serve"}).Handler()
	for _, c := range []struct {
		name, command string
		screen        bool
		want          map[int]string
		shown         int
	}{
		{"line mode", `printf 'a\n\nb\n'; sleep 600`, false, map[int]string{0: "a", 1: "", 2: "b", 3: ""}, 3},
		{"full screen, cursor hidden", `printf '\033[?1049h\033[?25l\033[Htop\033[50;1H\033[44m    \033[m\033[5;1H'; sleep 600`, true,
			map[int]string{0: "top", 4: "", 49: ""}, 1},
	} {
		code, body := call(t, h, "POST", "/v1/jobs", `{"tty": true, "command": `+quote(c.command)+`}`)
		require.Equal(t, 201, code, body)
		var info jobs.Info
		require.NoError(t, json.Unmarshal([]byte(body), &info))
		var screen ScreenResponse
		require.Eventually(t, func() bool {
			code, body := call(t, h, "GET", "/v1/jobs/"+info.ID.String()+"/screen?ansi=1", "")
			require.Equal(t, 200, code, body)
			require.NoError(t, json.Unmarshal([]byte(body), &screen))
			drawn := screen.Screen == c.screen && len(screen.Lines) == screen.Rows && len(screen.ANSI) == screen.Rows
			for row, text := range c.want {
				drawn = drawn && screen.Lines[row] == text
			}
			return drawn && (!c.screen || strings.Contains(screen.ANSI[49], "\x1b[44m"))
		}, testTimeout, 10*time.Millisecond, "%s: every row", c.name)
		assert.Len(t, screen.Shown(false), c.shown, c.name)
		if c.screen {
			assert.False(t, screen.CursorVisible)
			assert.Equal(t, 4, screen.CursorY)
			assert.Len(t, screen.Shown(true), 50, "%s: the coloured bar at the bottom shows", c.name)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
