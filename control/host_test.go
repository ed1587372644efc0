package control

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseHost(t *testing.T) {
	for _, c := range []struct {
		in               string
		user, addr, port string
		name             string
	}{
		{"ssh://b", "", "b", "", "b"},
		{"ssh://me@build-box", "me", "build-box", "", "me@build-box"},
		{"ssh://me@10.0.0.7:2222", "me", "10.0.0.7", "2222", "me@10.0.0.7:2222"},
		{"ssh://127.0.0.1/", "", "127.0.0.1", "", "127.0.0.1"},
		{"ssh://[::1]:22", "", "::1", "22", "[::1]:22"},
		{"ssh://[::1]", "", "::1", "", "[::1]"},
	} {
		h, err := ParseHost(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.user, h.User, c.in)
		assert.Equal(t, c.addr, h.Addr, c.in)
		assert.Equal(t, c.port, h.Port, c.in)
		assert.Equal(t, c.name, h.Name(), c.in)
		assert.Equal(t, c.in, h.URL)
	}
}

func TestParseHostRefusals(t *testing.T) {
	for _, c := range []struct{ in, says string }{
		{"b", "write it as ssh://[user@]host[:port]"},
		{"b:22", "write it as ssh://"},
		{"tcp://b:2375", "over ssh only"},
		{"ssh://", "no host name"},
		{"ssh://me:secret@b", "leave the password out"},
		{"ssh://b/run/jobtop.sock", "the far socket is --remote-socket"},
		{"ssh://b?x=1", "no path or query"},
		{"ssh://b:0", "from 1 to 65535"},
		{"ssh://b:99999", "from 1 to 65535"},
		{"ssh://b:", "an empty port"},
		{"ssh://-oProxyCommand=sh", `cannot start with "-"`},
		{"ssh://-x@b", `cannot start with "-"`},
		{"ssh://a'b@host", "characters no host name has"},
	} {
		_, err := ParseHost(c.in)
		require.Error(t, err, c.in)
		assert.Contains(t, err.Error(), c.says, c.in)
		assert.Contains(t, err.Error(), c.in, "the error quotes what was given")
	}
}

// The far command is one line for the far shell: the program and the
// socket are quoted, a leading ~/ stays for the far shell to expand, and
// --api comes before anything an old jobtop could take for a job.
func TestRemoteCommand(t *testing.T) {
	h := Host{Addr: "b", AnswerTimeout: DefaultAnswerTimeout}
	api := fmt.Sprintf("--api %d", APIVersion)
	assert.Equal(t, "jobtop dial-stdio "+api, h.remoteCommand())
	h = Host{Addr: "b", Bin: "~/go/bin/job top", Socket: "/run/it's.sock", NoStart: true, AnswerTimeout: DefaultAnswerTimeout}
	assert.Equal(t, `~/'go/bin/job top' dial-stdio `+api+` --socket '/run/it'\''s.sock' --no-start`, h.remoteCommand())
	assert.Equal(t, "'$(reboot)'", shellWord("$(reboot)"))
	assert.Equal(t, "''", shellWord(""))
}

// The far dial-stdio's own limit follows --host-timeout, a third under
// it (its clock starts after ssh has logged in, and it should give up
// first and say why); 0 is 0. The default, which is dial-stdio's own,
// is not passed: a far jobtop from before --answer-timeout refuses it.
func TestRemoteCommandPassesTheAnswerTimeout(t *testing.T) {
	for _, c := range []struct {
		host time.Duration
		far  string
	}{
		{DefaultAnswerTimeout, ""},
		{0, " --answer-timeout 0s"},
		{45 * time.Second, " --answer-timeout 30s"},
		{time.Second, " --answer-timeout 666ms"},
		{8 * time.Second, " --answer-timeout 5s"},
		{10 * time.Minute, " --answer-timeout 6m40s"},
	} {
		h := Host{Addr: "b", AnswerTimeout: c.host}
		assert.Equal(t, fmt.Sprintf("jobtop dial-stdio --api %d%s", APIVersion, c.far), h.remoteCommand(), "--host-timeout %v", c.host)
		h.oldFar = true
		assert.Equal(t, fmt.Sprintf("jobtop dial-stdio --api %d", APIVersion), h.remoteCommand(), "an old far jobtop gets none")
	}
}

func TestSSHArgs(t *testing.T) {
	h := Host{Addr: "b", User: "me", Port: "2222", AnswerTimeout: DefaultAnswerTimeout}
	args := h.sshArgs(true)
	assert.Equal(t, []string{"-T", "-x", "-a", "-o", "ClearAllForwardings=yes", "-o", "RemoteCommand=none", "-o", "PermitLocalCommand=no", "-o", "ServerAliveInterval=15", "-o", "BatchMode=yes", "-p", "2222", "-l", "me", "--", "b", fmt.Sprintf("jobtop dial-stdio --api %d", APIVersion)}, args)
	assert.NotContains(t, strings.Join(Host{Addr: "b"}.sshArgs(false), " "), "BatchMode", "a first interactive connection may ask")
}

func TestBanner(t *testing.T) {
	v, ok := parseBanner(strings.TrimSuffix(banner(7), "\n"))
	require.True(t, ok)
	assert.Equal(t, 7, v)
	for _, bad := range []string{"", "jobtop-api", "jobtop-api x", "jobtop-api -1", "hello"} {
		_, ok := parseBanner(bad)
		assert.False(t, ok, bad)
	}
}

func TestVersionErrorNamesBothVersions(t *testing.T) {
	err := error(&VersionError{Host: "b", URL: "ssh://b", Far: 0})
	assert.Contains(t, err.Error(), "speaks API version 0")
	assert.Contains(t, err.Error(), fmt.Sprintf("this jobtop speaks version %d", APIVersion))
	assert.Contains(t, err.Error(), "upgrade jobtop on b")
	var v *VersionError
	assert.True(t, errors.As(dialFailure(&wrapped{err}), &v), "the client returns it as it is")
}

type wrapped struct{ err error }

func (w *wrapped) Error() string { return "Get http://jobtop/v1/jobs: " + w.err.Error() }
func (w *wrapped) Unwrap() error { return w.err }

// A command that finds no instance on a host says how to start one
// there: serve on the host (jobtop --host serve is refused), or run
// --host with the same far program and socket.
func TestStartHint(t *testing.T) {
	h, err := ParseHost("ssh://me@b:2222")
	require.NoError(t, err)
	assert.Equal(t, "start one with `ssh ssh://me@b:2222 jobtop serve`; `jobtop --host ssh://me@b:2222 run` starts one for you", h.startHint())
	h.Bin, h.Socket = "~/bin/jobtop", "/run/my dir/s.sock"
	assert.Equal(t, "start one with `ssh ssh://me@b:2222 ~/bin/jobtop serve --socket '/run/my dir/s.sock'`; "+
		"`jobtop --host ssh://me@b:2222 --remote-bin '~/bin/jobtop' --remote-socket '/run/my dir/s.sock' run` starts one for you", h.startHint())
}

// A host's reconnections that fail say why in one line: ssh's own last
// line when ssh failed, a failed dial's last line, nothing for a
// connection that merely broke.
func TestUnreachableSaysWhyInOneLine(t *testing.T) {
	denied := &HostError{Host: "b", Msg: "ssh to b failed: Warning: added b\nme@b: Permission denied (publickey).", SSH: "me@b: Permission denied (publickey)."}
	assert.Equal(t, "ssh said: me@b: Permission denied (publickey).", Unreachable(fmt.Errorf("attach: %w", denied)))
	missing := &HostError{Host: "b", Msg: "jobtop is not on the PATH of host b (sh: jobtop: not found): install jobtop on host b"}
	assert.Equal(t, missing.Msg, Unreachable(missing))
	assert.Equal(t, "", Unreachable(io.ErrUnexpectedEOF))
	assert.Equal(t, "", Unreachable(nil))
}
