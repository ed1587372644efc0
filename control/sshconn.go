package control

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// sshProgram is the ssh client run for a Host: the user's own, found on
// the PATH, so their config, keys, agent and known_hosts apply.
const sshProgram = "ssh"

// Exit statuses of jobtop dial-stdio that a client tells apart.
const (
	// DialNoInstance: --no-start was given and no instance runs.
	DialNoInstance = 3
	// DialClientTooOld: the client's API version (--api) is older than
	// the far end serves.
	DialClientTooOld = 4
)

// sshCloseWait is how long a closed channel's ssh gets to exit before it
// is killed.
const sshCloseWait = 5 * time.Second

// SSHExitGrace is how long EndSSH gives an ssh whose far end answered to
// end its channel before it is killed: a round trip on a working link.
const SSHExitGrace = time.Second

// sshRunning is every ssh this process started that has not exited yet,
// for EndSSH. ended: EndSSH ran; an ssh started later is killed at once.
var sshRunning struct {
	mu    sync.Mutex
	conns map[*sshConn]struct{}
	ended bool
}

// EndSSH ends every ssh this process still runs, and returns once each
// has exited: a command calls it before it exits, so that no ssh
// outlives it (an ssh's own end, or its kill by Close, comes later than
// a command that has its answer). An ssh whose far end answered gets
// its input closed (the far dial-stdio ends, then ssh) and grace to
// exit; one still connecting, or still there after grace (a link that
// went silent), is killed. ssh started afterwards is killed at once.
func EndSSH(grace time.Duration) {
	sshRunning.mu.Lock()
	sshRunning.ended = true
	conns := make([]*sshConn, 0, len(sshRunning.conns))
	for c := range sshRunning.conns {
		conns = append(conns, c)
	}
	sshRunning.mu.Unlock()
	for _, c := range conns {
		if c.answered.Load() {
			c.Close()
		} else {
			c.kill()
		}
	}
	late := time.NewTimer(grace)
	defer late.Stop()
	for _, c := range conns {
		select {
		case <-c.exited:
			continue
		case <-late.C:
			late.Reset(0) // the rest are late too
		}
		c.proc.Kill() //nolint:errcheck // may have exited meanwhile
		<-c.exited
	}
}

// HostError says why a host could not be reached over ssh, in words a
// person can act on (ssh's own message, when ssh failed).
type HostError struct {
	Host string
	Msg  string
	// SSH is ssh's own last line when ssh itself failed ("me@b:
	// Permission denied (publickey).").
	SSH string
}

func (e *HostError) Error() string { return e.Msg }

// sshConn is an ssh process running jobtop dial-stdio on the far side, as
// a net.Conn: writes go to its stdin, reads come from its stdout. Its
// stderr is kept (the last few KiB) to explain a failure.
type sshConn struct {
	pipeConn // r is ssh's stdout, w its stdin
	host     Host
	proc     *os.Process
	stderr   *tailBuffer

	exited    chan struct{} // closed once ssh has exited
	state     *os.ProcessState
	closeOnce sync.Once
	answered  atomic.Bool // the far end sent its banner
}

// dialSSH runs ssh to h with jobtop dial-stdio on the far side and
// returns the channel once the far end has announced an API version this
// jobtop accepts. batch runs ssh with BatchMode (no question on the
// terminal).
func dialSSH(ctx context.Context, h Host, batch bool) (net.Conn, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd := exec.Command(sshProgram, h.sshArgs(batch)...)
	// *os.File for all three: exec copies nothing, and Wait returns when
	// ssh exits even if a ControlMaster it forked keeps stderr open.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, &HostError{Host: h.Name(), Msg: fmt.Sprintf("cannot run ssh to reach host %s (install OpenSSH's client): %v", h.Name(), err)}
	}
	c := &sshConn{pipeConn: pipeConn{r: outR, w: inW, name: h.Name()}, host: h, proc: cmd.Process, stderr: newTailBuffer(4 << 10), exited: make(chan struct{})}
	go c.stderr.fill(errR)
	sshRunning.mu.Lock()
	if sshRunning.conns == nil {
		sshRunning.conns = make(map[*sshConn]struct{})
	}
	sshRunning.conns[c] = struct{}{}
	if sshRunning.ended {
		c.proc.Kill() //nolint:errcheck // the command is ending
	}
	sshRunning.mu.Unlock()
	go func() {
		cmd.Wait() //nolint:errcheck // the state says how it ended
		c.state = cmd.ProcessState
		sshRunning.mu.Lock()
		delete(sshRunning.conns, c)
		sshRunning.mu.Unlock()
		close(c.exited)
	}()
	bannerCtx, limited := ctx, false
	if batch && h.AnswerTimeout > 0 {
		// No one is asked anything: all the wait is ssh connecting and
		// the far end answering, which a far jobtop stopped (SIGSTOP) or
		// hung never does.
		var cancel context.CancelFunc
		bannerCtx, cancel = context.WithTimeoutCause(ctx, h.AnswerTimeout, errNoAnswer)
		defer cancel()
		ours, _ := bannerCtx.Deadline()
		outer, bounded := ctx.Deadline()
		limited = !bounded || ours.Before(outer)
	}
	version, noise, err := c.readBanner(bannerCtx)
	if err != nil {
		// The read's deadline is the context's: it may pass before the
		// context says it is done.
		if errors.Is(context.Cause(bannerCtx), errNoAnswer) || limited && errors.Is(err, os.ErrDeadlineExceeded) {
			c.kill()
			return nil, &HostError{Host: h.Name(), Msg: c.noAnswer(noise)}
		}
		return nil, c.fail(ctx, noise, err)
	}
	c.answered.Store(true)
	if version < MinAPIVersion {
		c.Close()
		return nil, &VersionError{Host: h.Name(), URL: h.URL, Far: version}
	}
	return c, nil
}

// readBanner reads the far end's banner, within ctx, and returns the
// API version it announces. Lines before it (a shell startup file there
// that prints, up to maxNoise bytes) are skipped and returned as noise.
func (c *pipeConn) readBanner(ctx context.Context) (version int, noise string, err error) {
	if d, ok := ctx.Deadline(); ok {
		c.r.SetReadDeadline(d) //nolint:errcheck // pipes have deadlines
	}
	stop := context.AfterFunc(ctx, func() { c.r.SetReadDeadline(time.Now()) }) //nolint:errcheck // as above
	var seen, line []byte
	b := make([]byte, 1)
	for len(seen)+len(line) < maxNoise {
		n, err := c.r.Read(b)
		if n == 1 && b[0] != '\n' {
			line = append(line, b[0])
		}
		if n == 1 && b[0] == '\n' {
			if v, ok := parseBanner(string(line)); ok {
				if !stop() {
					return 0, string(seen), ctx.Err()
				}
				c.r.SetReadDeadline(time.Time{}) //nolint:errcheck // as above
				return v, string(seen), nil
			}
			seen = append(append(seen, line...), '\n')
			line = line[:0]
		}
		if err != nil {
			stop()
			return 0, string(append(seen, line...)), err
		}
	}
	stop()
	return 0, string(append(seen, line...)), fmt.Errorf("no jobtop-api line in the first %d bytes", maxNoise)
}

// fail explains why no banner came: ssh's own failure, a far jobtop that
// is missing or too old, or dial-stdio's own error. It ends the process.
func (c *sshConn) fail(ctx context.Context, noise string, readErr error) error {
	name := c.host.Name()
	if ctx.Err() != nil {
		c.kill()
		return fmt.Errorf("no answer from jobtop on host %s in time (ssh %s): %w", name, strings.Join(c.host.sshArgs(true), " "), ctx.Err())
	}
	c.Close()
	select {
	case <-c.exited:
	case <-time.After(sshCloseWait):
		c.kill()
		<-c.exited
	}
	c.stderr.wait(time.Second)
	// A far jobtop's own error reads "jobtop: ..."; this one adds its own.
	msg := strings.TrimPrefix(strings.TrimSpace(c.stderr.String()), "jobtop: ")
	if msg == "" {
		msg = strings.TrimSpace(noise) // what a far shell or program said on stdout
	}
	code := -1
	if c.state != nil {
		code = c.state.ExitCode()
	}
	switch {
	case code == 255:
		if msg == "" {
			msg = "ssh exited with status 255"
		}
		return &HostError{Host: name, Msg: fmt.Sprintf("ssh to %s failed: %s", name, msg), SSH: lastLine(msg)}
	case strings.Contains(msg, "unknown flag: --answer-timeout"):
		return errFarTakesNoAnswerTimeout
	case strings.Contains(msg, `unknown command "dial-stdio"`) || strings.Contains(msg, "unknown flag: --api"):
		return &VersionError{Host: name, URL: c.host.URL, Far: 0}
	case code == 127 && c.host.Bin == "":
		return &HostError{Host: name, Msg: fmt.Sprintf("jobtop is not on the PATH of host %s (%s): install jobtop on host %s, or pass --remote-bin PATH", name, lastLine(msg), name)}
	case code == 127:
		return &HostError{Host: name, Msg: fmt.Sprintf("no program %s on host %s (%s): install jobtop on host %s, or pass --remote-bin PATH with its path there", c.host.Bin, name, lastLine(msg), name)}
	case code == 126:
		return &HostError{Host: name, Msg: fmt.Sprintf("%s on host %s cannot be run (%s): pass --remote-bin PATH with jobtop's path there", c.host.bin(), name, lastLine(msg))}
	case code == DialNoInstance:
		where := "host " + name
		if c.host.Socket != "" {
			where += ", " + c.host.Socket
		}
		return &NotRunningError{Path: where, Err: &HostError{Host: name, Msg: msg}, Start: c.host.startHint()}
	case code == DialClientTooOld:
		return &HostError{Host: name, Msg: fmt.Sprintf("host %s: %s", name, msg)}
	case code == 0:
		// It ended well without a word of the API: no jobtop (a
		// --remote-bin naming another program, a wrapper that exits).
		said := ""
		if msg != "" {
			said = ", and said: " + lastLine(msg)
		}
		return &HostError{Host: name, Msg: fmt.Sprintf("%s on host %s ended without answering as jobtop dial-stdio does (exit status 0%s): is it jobtop? pass --remote-bin PATH with jobtop's path there", c.host.bin(), name, said)}
	case msg != "":
		return &HostError{Host: name, Msg: fmt.Sprintf("jobtop dial-stdio on host %s failed (exit status %d): %s", name, code, msg)}
	}
	return &HostError{Host: name, Msg: fmt.Sprintf("jobtop dial-stdio on host %s ended without answering (exit status %d, %v)", name, code, readErr)}
}

// errFarTakesNoAnswerTimeout: the far dial-stdio is from before
// --answer-timeout; the dial is made again without it.
var errFarTakesNoAnswerTimeout = errors.New("the far jobtop dial-stdio takes no --answer-timeout")

// errNoAnswer is the cause of a banner wait cut off by AnswerTimeout.
var errNoAnswer = errors.New("no answer from the far end in time")

// noAnswer says that the far end did not answer within the time limit,
// and what to check: ssh itself, then the far jobtop and its instance.
func (c *sshConn) noAnswer(noise string) string {
	name := c.host.Name()
	said := ""
	if s := lastLine(c.stderr.String()); s != "" {
		said = "; ssh or the far side said: " + s
	} else if s := lastLine(noise); s != "" {
		said = "; the far side printed: " + s
	}
	ssh := "ssh " + c.host.URL
	ls := shellWord(c.host.bin()) + " ls"
	if c.host.Socket != "" {
		ls += " --socket " + shellWord(c.host.Socket)
	}
	return fmt.Sprintf("no answer from %s dial-stdio on host %s within %v%s: "+
		"check that `%s true` logs in without asking anything, and that the jobtop instance there answers (`%s %s`: one stopped with SIGSTOP, or hung, answers nothing); --host-timeout DUR sets the limit",
		c.host.bin(), name, c.host.AnswerTimeout, said, ssh, ssh, ls)
}

// lastLine is the last line of s: a shell's "command not found" comes
// after whatever a startup file printed.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[i+1:])
	}
	return s
}

func (c *sshConn) kill() {
	c.proc.Kill() //nolint:errcheck // may have exited
	c.Close()
}

// Close ends the channel: the far dial-stdio sees the end of its input and
// exits, and so does ssh; one that has not within sshCloseWait is killed.
func (c *sshConn) Close() error {
	c.closeOnce.Do(func() {
		c.pipeConn.Close()
		go func() {
			select {
			case <-c.exited:
			case <-time.After(sshCloseWait):
				c.proc.Kill() //nolint:errcheck // may have exited meanwhile
			}
		}()
	})
	return nil
}

// pipeConn is a net.Conn made of two pipes: reads come from r, writes
// go to w.
type pipeConn struct {
	r, w *os.File
	name string // the far end, for RemoteAddr
}

// Read reads from the far end.
func (c *pipeConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// Write writes to the far end.
func (c *pipeConn) Write(p []byte) (int, error) { return c.w.Write(p) }

// Close closes both pipes.
func (c *pipeConn) Close() error {
	c.w.Close()
	return c.r.Close()
}

// LocalAddr and RemoteAddr name the far end; a pipe has no address.
func (c *pipeConn) LocalAddr() net.Addr  { return sshAddr("local") }
func (c *pipeConn) RemoteAddr() net.Addr { return sshAddr(c.name) }

// SetDeadline sets both deadlines.
func (c *pipeConn) SetDeadline(t time.Time) error {
	if err := c.r.SetReadDeadline(t); err != nil {
		return err
	}
	return c.w.SetWriteDeadline(t)
}

// SetReadDeadline bounds reads.
func (c *pipeConn) SetReadDeadline(t time.Time) error { return c.r.SetReadDeadline(t) }

// SetWriteDeadline bounds writes.
func (c *pipeConn) SetWriteDeadline(t time.Time) error { return c.w.SetWriteDeadline(t) }

// sshAddr is a net.Addr naming a host reached over ssh.
type sshAddr string

func (a sshAddr) Network() string { return "ssh" }
func (a sshAddr) String() string  { return string(a) }

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu   sync.Mutex
	max  int
	buf  []byte
	done chan struct{}
}

func newTailBuffer(max int) *tailBuffer {
	return &tailBuffer{max: max, done: make(chan struct{})}
}

// fill copies r into the buffer until EOF, then closes r.
func (b *tailBuffer) fill(r io.ReadCloser) {
	defer close(b.done)
	defer r.Close()
	chunk := make([]byte, 1024)
	for {
		n, err := r.Read(chunk)
		b.mu.Lock()
		b.buf = append(b.buf, chunk[:n]...)
		if len(b.buf) > b.max {
			b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
		}
		b.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// wait waits until the writer is done, at most d.
func (b *tailBuffer) wait(d time.Duration) {
	select {
	case <-b.done:
	case <-time.After(d):
	}
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
