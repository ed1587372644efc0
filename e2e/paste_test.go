package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A long paste without bracketed paste (tmux send-keys -l writes it to
// the terminal at once) arrives whole in the add prompt, however its
// characters fall across the TUI's reads: no é, 日本 or 👍🏽 is lost at a
// read boundary, and no key name in it acts as a key.
func TestLongPasteArrivesWhole(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	socket := filepath.Join(dir, "s.sock")
	s := newSession(t, 160, 30, []string{"JOBTOP_SOCKET=" + socket}, bin, "--no-file")
	s.waitText("no jobs")

	words := []string{"é", "日本", "👍🏽", "up", "end", "home", "q", "esc", "ÿ", "中文字", "🇫🇷", "x", "?"}
	var b strings.Builder
	b.WriteString("true")
	for i := 0; b.Len() < 6000; i++ {
		b.WriteString(" " + words[(i*7+i/3)%len(words)])
	}
	command := b.String()

	s.keys("a")
	s.waitText("add a job")
	// send-keys takes a few KiB at a time; the chunks still reach the
	// terminal far faster than anyone types, in reads that cut characters.
	for rest := command; rest != ""; {
		n := min(len(rest), 2000)
		for n < len(rest) && rest[n]&0xc0 == 0x80 { // whole characters to tmux
			n++
		}
		s.keys("-l", rest[:n])
		rest = rest[n:]
	}
	s.keys("Enter")

	var list []jobs.Info
	end := time.Now().Add(deadline)
	for len(list) == 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		cmd := exec.CommandContext(ctx, bin, "ls", "--json")
		cmd.Env = append(os.Environ(), "JOBTOP_SOCKET="+socket)
		out, err := cmd.Output()
		cancel()
		if err == nil {
			require.NoError(t, json.Unmarshal(out, &list))
		}
		if time.Now().After(end) {
			t.Fatalf("no job started; screen:\n%s", strings.Join(s.screen(), "\n"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	require.Len(t, list, 1)
	got := list[0].Command
	if got != command {
		i := 0
		for i < len(got) && i < len(command) && got[i] == command[i] {
			i++
		}
		t.Fatalf("the command differs from byte %d (of %d; got %d): want %q, got %q", i, len(command), len(got),
			command[i:min(len(command), i+40)], got[i:min(len(got), i+40)])
	}
	// The TUI may not have seen the job end yet when the API has it:
	// q would then ask first.
	s.waitText("✓ succeeded")
	s.keys("q")
	require.Equal(t, "0", s.waitExit())
}
