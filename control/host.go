package control

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultRemoteBin is the program a Host runs on the far side when none is
// given: jobtop, found on the far PATH.
const DefaultRemoteBin = "jobtop"

// Host is a jobtop instance on another machine, reached with the user's
// own ssh: `ssh [-p PORT] [-l USER] HOST jobtop dial-stdio`. OpenSSH does
// the authentication, the encryption and the host key checks (the user's
// config, keys, agent and known_hosts); jobtop only speaks its API over
// the channel.
type Host struct {
	// URL is the host as the user wrote it: ssh://[user@]host[:port].
	URL string
	// User, Addr and Port are its parts; User and Port may be empty (then
	// ssh's config decides).
	User, Addr, Port string
	// Bin is the jobtop program on the far side ("" means
	// DefaultRemoteBin). A leading "~/" is the far home directory.
	Bin string
	// Socket is the instance's socket on the far side; "" means the one
	// jobtop finds there by itself ($JOBTOP_SOCKET, then the default).
	Socket string
	// NoStart leaves the far side without an instance when none runs (the
	// client then gets a *NotRunningError); by default one is started, as
	// jobtop run does.
	NoStart bool
	// Interactive lets ssh ask for a passphrase or a password, or
	// confirm a new host key, on the terminal, for the first connection
	// only; every other connection runs ssh with BatchMode.
	Interactive bool
	// AnswerTimeout bounds the wait for the far end's first answer (its
	// banner) on a connection made with BatchMode: a far jobtop that is
	// stopped or hung, or a --remote-bin that never answers, is an error
	// after it instead of a command that hangs. 0: no limit. Streams
	// are not bounded by it: once the far end has answered, HTTP/2 pings
	// notice a channel that goes silent.
	AnswerTimeout time.Duration

	// oldFar: the far dial-stdio takes no --answer-timeout (a jobtop
	// from before it), so none is passed.
	oldFar bool
}

// DefaultDialAnswerTimeout is how long dial-stdio waits for the
// instance's first answer unless --answer-timeout says otherwise: a
// stopped (SIGSTOP) or hung instance takes the connection and never
// answers.
const DefaultDialAnswerTimeout = 20 * time.Second

// farAnswerTimeout is the --answer-timeout the far dial-stdio gets: a
// third under AnswerTimeout (whole seconds from 2s on), so that the far
// side, whose clock starts once ssh has logged in, gives up first and
// the client hears why; 0 for 0. For the default it is dial-stdio's own
// default, and is not passed (a far jobtop from before the flag would
// refuse it).
func (h Host) farAnswerTimeout() (string, bool) {
	d := (h.AnswerTimeout * 2 / 3).Truncate(time.Millisecond)
	if d >= 2*time.Second {
		d = d.Truncate(time.Second)
	}
	if h.oldFar || d == DefaultDialAnswerTimeout {
		return "", false
	}
	return d.String(), true
}

// DefaultAnswerTimeout is Host.AnswerTimeout unless --host-timeout says
// otherwise: room for ssh to connect and for the far dial-stdio to start
// an instance (which it gives 15 s).
const DefaultAnswerTimeout = 30 * time.Second

// ParseHost reads a host written ssh://[user@]host[:port]. Its errors
// begin with the value, quoted.
func ParseHost(s string) (Host, error) {
	form := "write it as ssh://[user@]host[:port], e.g. ssh://build-box or ssh://me@10.0.0.7:2222"
	if !strings.Contains(s, "://") {
		return Host{}, fmt.Errorf("%q: %s", s, form)
	}
	u, err := url.Parse(s)
	if err != nil {
		return Host{}, fmt.Errorf("%q: %s", s, form)
	}
	if u.Scheme != "ssh" {
		return Host{}, fmt.Errorf("%q: jobtop reaches other hosts over ssh only (%s)", s, form)
	}
	if _, hasPassword := u.User.Password(); hasPassword {
		return Host{}, fmt.Errorf("%q: leave the password out; ssh asks for it, or better, use a key (ssh-copy-id)", s)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return Host{}, fmt.Errorf("%q: a host takes no path or query (the far socket is --remote-socket); %s", s, form)
	}
	h := Host{URL: s, User: u.User.Username(), Addr: u.Hostname(), Port: u.Port()}
	switch {
	case h.Addr == "":
		return Host{}, fmt.Errorf("%q: no host name; %s", s, form)
	case strings.HasPrefix(h.Addr, "-") || strings.HasPrefix(h.User, "-"):
		return Host{}, fmt.Errorf("%q: a host or user name cannot start with \"-\"", s)
	case strings.ContainsAny(h.Addr+h.User, " \t\r\n'\"\\;&|$`"):
		return Host{}, fmt.Errorf("%q: the host and user names hold characters no host name has", s)
	}
	if h.Port != "" {
		if n, err := strconv.Atoi(h.Port); err != nil || n < 1 || n > 65535 {
			return Host{}, fmt.Errorf("%q: the port must be a number from 1 to 65535", s)
		}
	}
	if strings.HasSuffix(u.Host, ":") {
		return Host{}, fmt.Errorf("%q: an empty port; leave the \":\" out for ssh's own", s)
	}
	return h, nil
}

// Name is the host as jobtop shows it (the HOST column, messages):
// [user@]host[:port], as written.
// startHint says how to start an instance on the host, for a command that
// found none there: serve runs on the host itself (jobtop --host serve is
// refused), and run --host starts one as run does here.
func (h Host) startHint() string {
	serve, flags := shellWord(h.bin())+" serve", ""
	if h.Bin != "" {
		flags += " --remote-bin " + localWord(h.Bin)
	}
	if h.Socket != "" {
		serve += " --socket " + shellWord(h.Socket)
		flags += " --remote-socket " + localWord(h.Socket)
	}
	return fmt.Sprintf("start one with `ssh %s %s`; `jobtop --host %s%s run` starts one for you", h.URL, serve, h.URL, flags)
}

// localWord quotes s for this machine's shell: a "~/" in it is the far
// home, which this shell must not expand.
func localWord(s string) string {
	if strings.HasPrefix(s, "~") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return shellWord(s)
}

func (h Host) Name() string {
	name := h.Addr
	if strings.Contains(name, ":") {
		name = "[" + name + "]" // an IPv6 address
	}
	if h.Port != "" {
		name = net.JoinHostPort(h.Addr, h.Port)
	}
	if h.User != "" {
		name = h.User + "@" + name
	}
	return name
}

// bin is the far program.
func (h Host) bin() string {
	if h.Bin == "" {
		return DefaultRemoteBin
	}
	return h.Bin
}

// sshArgs are ssh's arguments for one connection: no terminal, no
// forwarding of any kind (a user's config may forward ports or the agent
// to this host; none of it is needed, and a second forward of the same
// port would fail), no RemoteCommand or LocalCommand of the user's config
// (the channel carries jobtop's bytes only), keep-alives from ssh itself
// (an ssh whose jobtop was killed, on a link gone silent, ends by itself
// after three unanswered, 45 s), BatchMode unless a person may be asked,
// then the host and the far command.
func (h Host) sshArgs(batch bool) []string {
	args := []string{"-T", "-x", "-a", "-o", "ClearAllForwardings=yes", "-o", "RemoteCommand=none", "-o", "PermitLocalCommand=no", "-o", "ServerAliveInterval=15"}
	if batch {
		args = append(args, "-o", "BatchMode=yes")
	}
	if h.Port != "" {
		args = append(args, "-p", h.Port)
	}
	if h.User != "" {
		args = append(args, "-l", h.User)
	}
	return append(args, "--", h.Addr, h.remoteCommand())
}

// remoteCommand is the command line the far shell runs.
func (h Host) remoteCommand() string {
	// --api comes first: a jobtop older than dial-stdio stops at the
	// unknown flag, before it could take "dial-stdio" for a job to run.
	cmd := shellWord(h.bin()) + " dial-stdio --api " + strconv.Itoa(APIVersion)
	if h.Socket != "" {
		cmd += " --socket " + shellWord(h.Socket)
	}
	if h.NoStart {
		cmd += " --no-start"
	}
	if d, ok := h.farAnswerTimeout(); ok {
		cmd += " --answer-timeout " + d
	}
	return cmd
}

// shellWord quotes s for a POSIX shell, leaving a leading "~/" for the far
// shell to expand to its home directory.
func shellWord(s string) string {
	if rest, ok := strings.CutPrefix(s, "~/"); ok {
		return "~/" + shellWord(rest)
	}
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:@%+,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
