package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// typeInto focuses the selected job's pane and enters input mode.
func typeInto(s *session) {
	s.t.Helper()
	s.keys("Enter", "i")
	s.waitText("INPUT")
}

// paste pastes text into the terminal jobtop runs in, as a terminal
// does: bracketed, since jobtop asks for bracketed paste.
func paste(s *session, text string) {
	s.t.Helper()
	s.tmux("set-buffer", "-b", "e2e", text)
	s.tmux("paste-buffer", "-p", "-d", "-b", "e2e", "-t", s.name)
}

// A paste in input mode reaches a job in line mode bracketed when the
// job asked for bracketed paste (?2004, as a shell does at its prompt),
// and raw when it did not: a shell that asked must not run each pasted
// line as it arrives.
func TestPasteInLineModeBracketedWhenAsked(t *testing.T) {
	bin, probe := binary(t), ttyecho(t)
	for _, c := range []struct {
		name, modes, want string
	}{
		{"asks", "2004", "got: ^[[200~echo one^Mecho two^[[201~"},
		{"raw", "", "got: echo one^Mecho two"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t, 120, 30, nil, bin, "--name", c.name, probe+" -modes '"+c.modes+"'")
			s.waitText("size ")
			typeInto(s)
			paste(s, "echo one\necho two")
			scr := s.waitText("got: ")
			scr = s.waitFor(c.want, func(scr []string) bool { return strings.Contains(strings.Join(scr, "\n"), c.want) })
			require.NotContains(t, row(scr, "job 1 "+c.name), "screen", "the job stayed in line mode")
			s.keys("C-a", "q", "y")
			require.Equal(t, "0", s.waitExit())
		})
	}
}

// A mouse click in input mode reaches a full-screen job as an SGR report
// at its own screen's coordinates when it asked for mouse reports
// (?1000 with ?1006), and nothing reaches a job that did not ask.
func TestMouseInInputModeReachesTheJobAsAsked(t *testing.T) {
	bin, probe := binary(t), ttyecho(t)
	for _, c := range []struct {
		name, modes, want string
	}{
		{"mouse", "1000,1006", "got: ^[[<0;1;1M^[[<0;1;1mz"},
		{"nomouse", "", "got: z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t, 120, 30, nil, bin, "--name", c.name, probe+" -alt -modes '"+c.modes+"'")
			s.waitFor("screen mode", func(scr []string) bool {
				return strings.Contains(row(scr, "job 1 "+c.name), "screen") && row(scr, "size ") != ""
			})
			typeInto(s)
			// The probe's first row on its screen says its size: click
			// its first cell, column 0 row 0 of the job's screen.
			// (A row that starts with it: the table's OUTPUT column
			// shows it too.)
			sizeRow := regexp.MustCompile(`^[│║]?size \d+x\d+`)
			scr := s.screen()
			x, y := 0, -1
			for i, r := range scr {
				if sizeRow.MatchString(r) {
					y, x = i, len([]rune(r[:strings.Index(r, "size ")]))
					break
				}
			}
			require.GreaterOrEqual(t, y, 0, "the probe's size row")
			click := fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x+1, y+1, x+1, y+1)
			s.keys(append([]string{"-H"}, hexBytes(click)...)...)
			s.keys("z")
			// The probe's newest line says all it read, the key last.
			scr = s.waitFor("the key after the click", func(scr []string) bool { return strings.HasSuffix(lastGot(scr), "z") })
			require.Equal(t, c.want, lastGot(scr), "only the click as asked, then the key")
			s.keys("C-a", "q", "y")
			require.Equal(t, "0", s.waitExit())
		})
	}
}

// gotRow is a row of the ttyecho probe's saying what it read.
var gotRow = regexp.MustCompile(`^[│║]?(got: .*?)[ │║]*$`)

// lastGot is the probe's newest "got: " line on the screen: all it read.
func lastGot(scr []string) string {
	got := ""
	for _, r := range scr {
		if m := gotRow.FindStringSubmatch(r); m != nil {
			got = m[1]
		}
	}
	return got
}

// Keys with modifiers reach a job typed into as tmux sends them to a
// pane: alt+up as CSI 1;3A (not ESC then up), and the keys Bubble Tea v1
// has no name for (ctrl+f5, shift+pgup) or read as another
// (shift+delete was alt+insert) as they came.
func TestModifiedKeysInInputModeReachTheJob(t *testing.T) {
	bin, probe := binary(t), ttyecho(t)
	s := newSession(t, 120, 30, nil, bin, "--name", "keys", probe)
	s.waitText("size ")
	typeInto(s)
	s.keys("M-Up", "C-F5", "S-DC", "M-F1", "S-PPage", "C-F1", "M-S-Up", "C-b", "z")
	want := "got: ^[[1;3A^[[15;5~^[[3;2~^[[1;3P^[[5;2~^[[1;5P^[[1;4A^Bz"
	scr := s.waitFor("the z after the keys", func(scr []string) bool { return strings.HasSuffix(lastGot(scr), "z") })
	require.Equal(t, want, lastGot(scr))
	s.keys("C-a", "q", "y")
	require.Equal(t, "0", s.waitExit())
}

// A job added in the TUI runs on a terminal; ctrl+t in the add prompt
// runs it on pipes: the API says so, and the program sees it.
func TestAddPromptChoosesTerminalOrPipes(t *testing.T) {
	bin, probe := binary(t), ttyecho(t)
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	socket := filepath.Join(dir, "s.sock")
	s := newSession(t, 140, 30, []string{"JOBTOP_SOCKET=" + socket}, bin, "--no-file")
	s.waitText("no jobs")
	s.keys("a")
	s.waitText("add a job", "on a terminal")
	s.keys("-l", probe)
	s.keys("Enter")
	s.waitText("isatty in=true out=true")
	s.keys("a")
	s.waitText("add a job", "on a terminal")
	s.keys("C-t")
	s.waitText("on pipes")
	s.keys("-l", probe)
	s.keys("Enter")
	s.waitText("isatty in=false out=false")

	cmd := exec.Command(bin, "ls", "--json")
	cmd.Env = append(os.Environ(), "JOBTOP_SOCKET="+socket)
	out, err := cmd.Output()
	require.NoError(t, err)
	var list []struct {
		ID  int  `json:"id"`
		TTY bool `json:"tty"`
	}
	require.NoError(t, json.Unmarshal(out, &list), "%s", out)
	require.Len(t, list, 2)
	require.True(t, list[0].TTY, "the default in the TUI is a terminal: %s", out)
	require.False(t, list[1].TTY, "ctrl+t chose pipes: %s", out)
	s.keys("q", "y")
	require.Equal(t, "0", s.waitExit())
}

// jobtop attach resizes a terminal job to its pane while it shows it,
// and gives the job back the size it had when it ends: the default of a
// job no pane shows, not the attached pane's.
func TestAttachGivesTheTerminalSizeBack(t *testing.T) {
	bin, probe := binary(t), ttyecho(t)
	in := startServe(t, bin)
	in.cli("run", "--tty", "--name", "probe", "--", probe)
	size := func() string {
		m := regexp.MustCompile(`size (\d+x\d+)`).FindAllStringSubmatch(in.cli("logs", "probe"), -1)
		if len(m) == 0 {
			return ""
		}
		return m[len(m)-1][1]
	}
	require.Eventually(t, func() bool { return size() == "200x50" }, deadline, 50*time.Millisecond, "the default size")

	s := newSession(t, 110, 30, in.sessionEnv(), bin, "attach")
	s.waitText("job 1 probe")
	require.Eventually(t, func() bool { return strings.HasPrefix(size(), "110x") }, deadline, 50*time.Millisecond,
		"the attached pane's size; the job says %s", size())
	s.keys("q", "y")
	require.Equal(t, "0", s.waitExit())
	require.Eventually(t, func() bool { return size() == "200x50" }, deadline, 50*time.Millisecond,
		"the size it had, back; the job says %s", size())
	var list []struct{ Cols, Rows int }
	require.NoError(t, json.Unmarshal([]byte(in.cli("ls", "--json")), &list))
	require.Equal(t, 200, list[0].Cols)
	require.Equal(t, 50, list[0].Rows)
	require.Equal(t, "running", in.state("probe"))
}

// hexBytes is s as tmux send-keys -H takes it: a key per byte, in hex,
// so that a sequence reaches the terminal as one write, not as keys.
func hexBytes(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		out = append(out, fmt.Sprintf("%02x", s[i]))
	}
	return out
}
