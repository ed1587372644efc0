package jobs

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// DefaultLogCap is the per-job log file size bound.
const DefaultLogCap = 1 << 30

// MinLogCap is the smallest cap a log file takes: room for its marker
// lines and some output. A job file's log.max_size below it is refused.
const MinLogCap = 4 << 10

// rotatedSuffix names the file that holds a log's output before its last
// rotation.
const rotatedSuffix = ".1"

// logFile writes every byte of a job's output, both streams, to its file.
// When the file reaches its cap it becomes <file>.1 (replacing the one
// before) and a new file begins with a marker line: the newest output is
// kept, and a job's log takes at most twice its cap. Nothing it is given
// can make it panic; bytes it cannot write (a full disk) are counted.
//
// After an error (a full disk, a file it could not make or open) it
// drops what it is given, counting it, and tries the file again at the
// next run and every logRetryEvery while a run writes: never on each
// write while the disk stays full. Where writing resumes, a marker line
// says how many bytes were lost there, and why.
//
// A write can block for as long as the disk is behind (seconds, under a
// flood), holding mu: what others read of a log (Files, Dropped) takes no
// lock, and markers from under the manager's lock are queued (MarkerSoon),
// so a slow disk holds up the job's reader and nothing else.
type logFile struct {
	mu      sync.Mutex
	queueMu sync.Mutex    // never held across a write
	queued  []string      // markers not written yet (MarkerSoon)
	path    string        // set once
	opened  chan struct{} // closed once the file is created, or could not be
	noFile  atomic.Bool   // it could not be: the log writes nothing
	// openMu guards opening and afterOpen: a Park or Close asked for
	// while the file is being opened is left to the opener, so no one
	// (under the manager's lock, say) waits for a disk that does not
	// answer.
	openMu    sync.Mutex
	opening   bool
	afterOpen func()
	f         *os.File
	written   int64 // bytes in the current file
	cap       int64
	rotations atomic.Int64
	midLine   bool                   // the last byte written was not a newline
	parked    bool                   // closed between runs: reopened on the next write
	dropped   atomic.Int64           // bytes lost to write errors
	err       error                  // the error writes wait out: dropped until a retry works
	failedAt  time.Time              // when err was last met
	lostFrom  int64                  // dropped when err began: the loss a retry's marker reports
	retryNow  atomic.Bool            // a new run began: retry at the next write, whenever err was met
	errText   atomic.Pointer[string] // the last error's text, read without mu; kept once writes resume
}

// logRetryEvery is how often a log whose writes failed tries its file
// again while a run writes (a new run tries at once).
const logRetryEvery = 5 * time.Second

// logTestHooks, for tests, replaces how logs write to their files (a
// full disk is simulated so) and how often they retry; nil for none. It
// is atomic: a log of an earlier test may still be writing its last
// marker when the next test sets it.
var logTestHooks atomic.Pointer[logHooks]

type logHooks struct {
	retryEvery time.Duration
	write      func(f *os.File, p []byte) (int, error)
	create     func(path string) (*os.File, error) // newLogFile's stand-in
}

// logWrite writes p to a log's file.
func logWrite(f *os.File, p []byte) (int, error) {
	if h := logTestHooks.Load(); h != nil && h.write != nil {
		return h.write(f, p)
	}
	if full := fullLogs.Load(); full != nil && (*full)[f.Name()] {
		return 0, syscall.ENOSPC
	}
	return f.Write(p)
}

// fullLogs are the log files FillLogForTest made full; nil but in tests.
var (
	fullLogs   atomic.Pointer[map[string]bool]
	fullLogsMu sync.Mutex
)

// FillLogForTest makes every write to the log file at path fail with
// ENOSPC, as on a full disk, until the test ends: for the tests of other
// packages that show what is said of a log that lost output (a /dev/full
// planted at the path is no longer written through: logs never open a
// symlink).
func FillLogForTest(t interface{ Cleanup(func()) }, path string) {
	set := func(full bool) {
		fullLogsMu.Lock()
		defer fullLogsMu.Unlock()
		next := map[string]bool{}
		if old := fullLogs.Load(); old != nil {
			maps.Copy(next, *old)
		}
		if full {
			next[path] = true
		} else {
			delete(next, path)
		}
		if len(next) == 0 {
			fullLogs.Store(nil)
			return
		}
		fullLogs.Store(&next)
	}
	set(true)
	t.Cleanup(func() { set(false) })
}

// logRetryInterval is logRetryEvery, or the tests' own.
func logRetryInterval() time.Duration {
	if h := logTestHooks.Load(); h != nil && h.retryEvery != 0 {
		return h.retryEvery
	}
	return logRetryEvery
}

// newLogFile makes a new log file at path: what is there is removed (a
// symlink, not what it points at) and the file is created exclusively,
// never following a symlink, so a file another user put there (a symlink
// to one of this user's files, a file they can read) is never written.
func newLogFile(path string) (*os.File, error) {
	if h := logTestHooks.Load(); h != nil && h.create != nil {
		return h.create(path)
	}
	return createLogFile(path)
}

// createLogFile is newLogFile, with no test hook.
func createLogFile(path string) (*os.File, error) {
	if err := removeFile(path); err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	return openLog(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW)
}

// openLogFileSoon starts a fresh log at path (whatever an earlier session
// or anyone else left there, path and path.1, is removed and a new file
// made: never appended to, never written through: newLogFile) without
// waiting for the disk, where creating a file can take a millisecond or
// more (ext4 looks for an inode that was not freed recently). The file is created by a goroutine that
// holds mu until it is done, so whatever is written waits for it, and
// the caller goes on, e.g. to start the job's process meanwhile. A log
// whose file could not be made writes nothing and counts what it drops.
func openLogFileSoon(path string, cap int64) *logFile {
	l := &logFile{path: path, cap: max(cap, MinLogCap), opened: make(chan struct{}), opening: true}
	l.mu.Lock()
	go func() {
		defer close(l.opened)
		defer l.mu.Unlock()
		l.create()
		l.openMu.Lock()
		l.opening = false
		then := l.afterOpen
		l.openMu.Unlock()
		if then != nil {
			then()
		}
	}()
	return l
}

// create makes the log's file; the caller holds mu.
func (l *logFile) create() {
	if err := removeFile(l.path + rotatedSuffix); err != nil && !os.IsNotExist(err) {
		l.failOpen(err)
		return
	}
	f, err := newLogFile(l.path)
	if err != nil {
		l.failOpen(err)
		return
	}
	l.f = f
}

// leftToOpener leaves do, if the file is being opened, to the opener,
// which runs it (with mu held) once the file is open, and reports
// whether it did.
func (l *logFile) leftToOpener(do func()) bool {
	l.openMu.Lock()
	defer l.openMu.Unlock()
	if l.opening {
		l.afterOpen = do // the last asked for wins: Close after Park
	}
	return l.opening
}

// failOpen records that the log has no file; the caller holds mu.
func (l *logFile) failOpen(err error) {
	l.setErr(err)
	l.noFile.Store(true)
}

// Path is the log's file, "" when it could not be made.
func (l *logFile) Path() string {
	if l.noFile.Load() {
		return ""
	}
	return l.path
}

// Write writes p, rotating the file whenever it is full. It never fails:
// bytes an error kept from the disk are counted as dropped.
func (l *logFile) Write(p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.unpark()
	l.writeQueued()
	l.retry()
	for len(p) > 0 {
		if l.f == nil || l.err != nil {
			l.dropped.Add(int64(len(p)))
			return
		}
		room := l.cap - l.written
		if room <= 0 {
			l.rotate()
			continue
		}
		if int64(len(p)) <= room {
			l.write(p)
			return
		}
		// This write fills the file: it ends after the last whole line
		// that fits, and the rest goes on in a new file. A line is split
		// only when it is longer than a whole file.
		n := int(room)
		if k := bytes.LastIndexByte(p[:n], '\n'); k >= 0 {
			n = k + 1
		} else if end := bytes.IndexByte(p, '\n'); l.written > 0 && !l.midLine && end >= 0 && int64(end) < l.cap {
			l.rotate() // the line goes whole into the next file
			continue
		}
		l.write(p[:n])
		p = p[n:]
		if l.err == nil {
			l.rotate()
		}
	}
}

// write writes to the current file; the caller checked the room.
func (l *logFile) write(p []byte) {
	n, err := logWrite(l.f, p)
	l.written += int64(n)
	if n > 0 {
		l.midLine = p[n-1] != '\n'
	}
	if err != nil {
		l.setErr(err)
		l.dropped.Add(int64(len(p) - n))
	}
}

// rotate moves the full file to path.1 and starts a new one that says so.
// The old path.1 is removed first: a rename over an existing file makes
// ext4 push the renamed file's data to the disk (its replace-via-rename
// safeguard), which takes seconds while the disk is behind.
func (l *logFile) rotate() {
	l.f.Close()
	l.f = nil
	if err := removeFile(l.path + rotatedSuffix); err != nil && !os.IsNotExist(err) {
		l.setErr(err)
		return
	}
	if err := os.Rename(l.path, l.path+rotatedSuffix); err != nil {
		l.setErr(err)
		return
	}
	f, err := newLogFile(l.path)
	if err != nil {
		l.setErr(err)
		return
	}
	l.f, l.written, l.midLine = f, 0, false
	gone := ""
	if l.rotations.Add(1) > 1 {
		gone = "; older output is gone"
	}
	l.write([]byte(fmt.Sprintf("[jobtop] log rotated at %s (it reached %s): the output before this line is in %s%s\n",
		time.Now().Format(time.RFC3339), FormatBytes(l.cap), filepath.Base(l.path)+rotatedSuffix, gone)))
}

// Marker writes a line of jobtop's own, on a line of its own, e.g. where a
// new run begins. A marker is never split by a rotation. It waits for the
// disk: under the manager's lock, use MarkerSoon.
func (l *logFile) Marker(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writeQueued()
	l.marker(text)
}

// MarkerSoon is Marker for a caller that holds the manager's lock: the
// marker is queued, written before any later output or marker, and soon
// by itself, so a disk that is behind does not hold the caller up.
func (l *logFile) MarkerSoon(text string) {
	l.queueMu.Lock()
	l.queued = append(l.queued, text)
	l.queueMu.Unlock()
	go func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.writeQueued()
	}()
}

// writeQueued writes the queued markers; the caller holds mu.
func (l *logFile) writeQueued() {
	l.queueMu.Lock()
	queued := l.queued
	l.queued = nil
	l.queueMu.Unlock()
	for _, text := range queued {
		l.marker(text)
	}
}

// marker writes a marker line; the caller holds mu.
func (l *logFile) marker(text string) {
	l.unpark()
	l.retry()
	l.markerLine(text)
}

// markerLine writes a marker line as it is; the caller holds mu.
func (l *logFile) markerLine(text string) {
	text = "[jobtop] " + text[:min(len(text), MinLogCap/2)] + "\n"
	line := text
	if l.midLine {
		line = "\n" + text
	}
	if l.f != nil && l.err == nil && int64(len(line)) > l.cap-l.written {
		l.rotate()
		line = text
	}
	if l.f == nil || l.err != nil {
		l.dropped.Add(int64(len(line)))
		return
	}
	l.write([]byte(line))
}

// RunSeparator marks where run number run of the job begins (soon: see
// MarkerSoon).
func (l *logFile) RunSeparator(run int, at time.Time) {
	l.retryNow.Store(true)
	l.MarkerSoon(fmt.Sprintf("── run %d · started %s ──", run, at.Format(time.RFC3339)))
}

// markRunStart writes where a new run begins: a separator line with the
// run's number and time in the log, and for a restart a marker line in
// the output.
func (j *job) markRunStart(at time.Time) {
	if j.runs > 1 {
		j.store.AppendMeta(fmt.Sprintf("── run %d ──", j.runs))
	}
	j.log.RunSeparator(j.runs, at)
}

// setErr records a write error (the caller holds mu): what is written
// from then on is dropped, until a retry works.
func (l *logFile) setErr(err error) {
	if l.err == nil {
		l.lostFrom = l.dropped.Load()
	}
	text := err.Error()
	l.errText.Store(&text)
	l.err, l.failedAt = err, time.Now()
}

// retry tries the file again after an error, when it is time (a new
// run, or logRetryEvery since the error was last met): it opens the file
// again if it has none, and writes a marker line saying how many bytes
// were lost there and why. An error on the way puts off the next retry.
// The caller holds mu.
func (l *logFile) retry() {
	now := l.retryNow.Swap(false)
	if l.err == nil || !now && time.Since(l.failedAt) < logRetryInterval() {
		return
	}
	if l.f == nil && !l.reopen() {
		return
	}
	cause, lostFrom := l.err, l.lostFrom
	l.err = nil
	if lost := l.dropped.Load() - lostFrom; lost > 0 {
		l.markerLine(fmt.Sprintf("%d bytes lost here (%s)", lost, errCause(cause)))
		if l.err != nil { // the disk is still full: the loss goes on
			l.lostFrom = lostFrom
		}
	}
}

// reopen opens the log's file after an error closed it or kept it from
// being made, and reports whether it could; the caller holds mu. A log
// that never had a file starts one, as openLogFileSoon does; else it
// appends to what is there.
func (l *logFile) reopen() bool {
	if l.noFile.Load() {
		l.create()
		if l.f == nil {
			return false
		}
		l.noFile.Store(false)
		l.written, l.midLine = 0, false
		return true
	}
	f, err := openLog(l.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NOFOLLOW)
	if err == nil {
		var st os.FileInfo
		if st, err = f.Stat(); err != nil {
			f.Close()
		} else {
			l.f, l.written, l.parked = f, st.Size(), false
			return true
		}
	}
	l.setErr(err)
	return false
}

// errCause is what an error says without the file it happened to: "no
// space left on device".
func errCause(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return err.Error()
}

// Err is the text of the last error that kept output from the file, ""
// for none. It stays once writing resumes: Dropped counts what it cost.
func (l *logFile) Err() string {
	if t := l.errText.Load(); t != nil {
		return *t
	}
	return ""
}

// Dropped counts the bytes lost to write errors.
func (l *logFile) Dropped() int64 {
	return l.dropped.Load()
}

// Files lists the log's files that exist, oldest output first: the
// rotated one, then the current one.
func (l *logFile) Files() []string {
	switch {
	case l.noFile.Load():
		return nil
	case l.rotations.Load() > 0:
		return []string{l.path + rotatedSuffix, l.path}
	}
	return []string{l.path}
}

// Park closes the file between runs, so a finished job holds no file
// descriptor; the next write opens it again, appending. While the file
// is being opened, it is parked once it is.
func (l *logFile) Park() {
	if l.leftToOpener(l.parkLocked) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.parkLocked()
}

func (l *logFile) parkLocked() {
	l.writeQueued()
	if l.f != nil {
		l.f.Close()
		l.f, l.parked = nil, l.err == nil // after an error, retry opens it
	}
}

func (l *logFile) unpark() {
	if !l.parked {
		return
	}
	l.parked = false
	f, err := openLog(l.path, os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW)
	if err != nil {
		l.setErr(err)
		return
	}
	l.f = f
}

// discard waits for the file of a log that is not needed after all (its
// job was refused) and removes it.
func (l *logFile) discard() {
	<-l.opened
	l.Close() //nolint:errcheck // removed next
	if !l.noFile.Load() {
		os.Remove(l.path) //nolint:errcheck // best effort
	}
}

// Close closes the file for good. While the file is being opened, it is
// closed once it is, and Close returns nil.
func (l *logFile) Close() error {
	if l.leftToOpener(func() { l.closeLocked() }) { //nolint:errcheck // no one to tell
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closeLocked()
}

func (l *logFile) closeLocked() error {
	l.writeQueued()
	l.parked = false
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
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

// openLog opens a log file (mode 0600 when it creates it). A regular
// file is never read through Go's poller, but os.OpenFile tries it on
// Linux: five system calls more, for each job's start.
func openLog(path string, flag int) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, flag|syscall.O_CLOEXEC, 0o600)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

// removeFile removes a file, or an empty directory as os.Remove does;
// a file that is not there costs one system call, not os.Remove's two.
func removeFile(path string) error {
	switch err := syscall.Unlink(path); err {
	case nil:
		return nil
	case syscall.ENOENT:
		return &os.PathError{Op: "remove", Path: path, Err: err}
	}
	return os.Remove(path)
}
