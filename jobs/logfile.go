package jobs

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// DefaultLogCap is the per-job log file size bound.
const DefaultLogCap = 1 << 30

// logFile writes every byte of a job's output, both streams, up to a cap.
// Past the cap it writes one marker line and counts what it drops.
type logFile struct {
	mu      sync.Mutex
	path    string
	f       *os.File
	written int64
	cap     int64
	dropped int64
	err     error // first write error; later writes are dropped
}

func openLogFile(path string, cap int64) (*logFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &logFile{path: path, f: f, written: st.Size(), cap: cap}, nil
}

// Write never fails: errors and bytes past the cap are counted as dropped.
func (l *logFile) Write(p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil || l.err != nil || l.dropped > 0 {
		l.dropped += int64(len(p))
		return
	}
	room := l.cap - l.written
	if int64(len(p)) > room {
		l.write(p[:room])
		l.dropped += int64(len(p)) - room
		l.write([]byte(fmt.Sprintf("\n[jobtop] log file reached its cap of %s; further output is not written here\n", FormatBytes(l.cap))))
		return
	}
	l.write(p)
}

func (l *logFile) write(p []byte) {
	if l.err != nil {
		l.dropped += int64(len(p))
		return
	}
	n, err := l.f.Write(p)
	l.written += int64(n)
	if err != nil {
		l.err = err
		l.dropped += int64(len(p) - n)
	}
}

// Marker writes a line of jobtop's own, e.g. where a new run begins; it is
// written even past the cap so the file says what happened.
func (l *logFile) Marker(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil && l.err == nil {
		l.write([]byte("[jobtop] " + text + "\n"))
	}
}

func (l *logFile) Dropped() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dropped
}

func (l *logFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// DefaultStateDir is $XDG_STATE_HOME/jobtop, or ~/.local/state/jobtop.
func DefaultStateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "jobtop")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "jobtop")
	}
	return filepath.Join(os.TempDir(), "jobtop-"+strconv.Itoa(os.Getuid()), "state")
}

// newSessionLogDir makes a fresh directory for one manager's logs under
// stateDir/logs, named by start time and PID so instances never collide.
func newSessionLogDir(stateDir string) (string, error) {
	name := time.Now().Format("20060102-150405") + "-" + strconv.Itoa(os.Getpid())
	dir := filepath.Join(stateDir, "logs", name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("log directory: %w", err)
	}
	return dir, nil
}

// FormatBytes writes a byte count for people: "512 B", "1.5 KiB", "1 GiB".
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, exp := float64(n)/unit, 0
	for v >= unit && exp < 5 {
		v /= unit
		exp++
	}
	return trimFloat(v) + " " + string("KMGTPE"[exp]) + "iB"
}

func trimFloat(v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		s = s[:len(s)-2]
	}
	return s
}
