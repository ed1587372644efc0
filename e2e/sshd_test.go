package e2e

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// sshHost is a private sshd on 127.0.0.1 for one test: a throwaway host
// key, a key pair of its own in its authorized_keys and a config of its
// own. Nothing of the machine's ssh setup is read or written: the
// client's side is an "ssh" first on the PATH (env) that runs the real
// ssh with the test's config, key and known_hosts.
//
// The far side of a connection has a PATH of farBin plus /usr/bin:/bin
// and its own XDG directories under farDir (sshd's ForceCommand sets
// them), so a test decides whether jobtop is on the far PATH.
type sshHost struct {
	dir    string
	port   int
	url    string   // ssh://127.0.0.1:PORT
	env    []string // PATH with the test's ssh first
	farBin string
	farDir string
	ssh    string // the real ssh
}

// sshdPath finds sshd, which is usually outside a user's PATH.
func sshdPath(t testing.TB) string {
	for _, p := range []string{"/usr/sbin/sshd", "/usr/local/sbin/sshd", "/sbin/sshd"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, err := exec.LookPath("sshd")
	if err != nil {
		t.Fatal("sshd is needed for the tests over ssh (.ci/run installs openssh-server): ", err)
	}
	return p
}

// privsepRE finds the directory sshd says it misses: as root, it insists
// on its privilege separation directory (/run/sshd on Debian), which the
// package makes when its service starts.
var privsepRE = regexp.MustCompile(`Missing privilege separation directory: (\S+)`)

// startSSHD starts the test's sshd and waits until it takes connections.
// It is stopped at the end of the test.
func startSSHD(t testing.TB) *sshHost {
	t.Helper()
	sshd := sshdPath(t)
	realSSH, err := exec.LookPath("ssh")
	require.NoError(t, err, "ssh is needed (.ci/run installs openssh-client)")
	me, err := user.Current()
	require.NoError(t, err)
	dir, err := os.MkdirTemp("", "jtssh") // short: sockets live under it
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	h := &sshHost{dir: dir, farBin: filepath.Join(dir, "farbin"), farDir: filepath.Join(dir, "far"), ssh: realSSH}
	for _, d := range []string{h.farBin, h.farDir, filepath.Join(dir, "bin")} {
		require.NoError(t, os.MkdirAll(d, 0o700))
	}
	for _, key := range []string{"hostkey", "id", "wrongid"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "jobtop-test", "-f", filepath.Join(dir, key)).CombinedOutput()
		require.NoError(t, err, "ssh-keygen: %s", out)
	}
	copyFile(t, filepath.Join(dir, "id.pub"), filepath.Join(dir, "authorized_keys"))
	hostKey, err := os.ReadFile(filepath.Join(dir, "hostkey.pub"))
	require.NoError(t, err)

	var sshdErr bytes.Buffer
	for attempt := 0; ; attempt++ {
		h.port = freePort(t)
		writeFile(t, filepath.Join(dir, "sshd_config"), fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s/hostkey
AuthorizedKeysFile %s/authorized_keys
PidFile none
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowUsers %s
LogLevel ERROR
ForceCommand exec env PATH=%s:/usr/bin:/bin XDG_RUNTIME_DIR=%s XDG_STATE_HOME=%s /bin/sh -c "$SSH_ORIGINAL_COMMAND"
`, h.port, dir, dir, me.Username, h.farBin, h.farDir, h.farDir))
		sshdErr.Reset()
		cmd := exec.Command(sshd, "-D", "-e", "-f", filepath.Join(dir, "sshd_config"))
		cmd.Stdout, cmd.Stderr = &sshdErr, &sshdErr
		require.NoError(t, cmd.Start())
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }() //nolint:errcheck // stopped on purpose
		if waitPort(h.port, exited) {
			t.Cleanup(func() {
				cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may have exited
				<-exited
			})
			break
		}
		if m := privsepRE.FindStringSubmatch(sshdErr.String()); m != nil && os.Geteuid() == 0 {
			require.NoError(t, os.MkdirAll(m[1], 0o755), "sshd's privilege separation directory")
		}
		require.Less(t, attempt, 3, "sshd did not start: %s", sshdErr.String())
	}

	writeFile(t, filepath.Join(dir, "known_hosts"), fmt.Sprintf("[127.0.0.1]:%d %s", h.port, hostKey))
	for _, key := range []string{"id", "wrongid"} {
		writeFile(t, filepath.Join(dir, "ssh_config_"+key), fmt.Sprintf(`Host *
  Port %d
  User %s
  IdentityFile %s/%s
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile %s/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  UpdateHostKeys no
  ControlMaster no
  ControlPath none
`, h.port, me.Username, dir, key, dir))
	}
	h.useKey("id")
	h.url = fmt.Sprintf("ssh://127.0.0.1:%d", h.port)
	return h
}

// useKey makes the test's ssh use a key: "id" (authorized) or "wrongid".
func (h *sshHost) useKey(key string) {
	script := fmt.Sprintf("#!/bin/sh\nexec %s -F %s/ssh_config_%s \"$@\"\n", h.ssh, h.dir, key)
	os.WriteFile(filepath.Join(h.dir, "bin", "ssh"), []byte(script), 0o700) //nolint:errcheck,gosec // the first connection tells
	h.env = []string{"PATH=" + filepath.Join(h.dir, "bin") + ":" + os.Getenv("PATH")}
}

// installJobtop puts bin on the far PATH as jobtop.
func (h *sshHost) installJobtop(t testing.TB, bin string) {
	t.Helper()
	require.NoError(t, os.Symlink(bin, filepath.Join(h.farBin, "jobtop")))
}

// sshProcesses lists the PIDs of the ssh clients running with the test's
// config whose parent is ppid (0: any).
func (h *sshHost) sshProcesses(ppid int) []int {
	var found []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Contains(cmdline, []byte(h.dir+"/ssh_config_")) || isZombie(e.Name()) {
			continue
		}
		if ppid == 0 || parentOf(pid) == ppid {
			found = append(found, pid)
		}
	}
	return found
}

// parentOf is a process's parent PID, or 0.
func parentOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitPort waits until something takes connections on port, or exited
// closes (false).
func waitPort(port int, exited <-chan struct{}) bool {
	end := time.Now().Add(deadline)
	for time.Now().Before(end) {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return true
		}
		select {
		case <-exited:
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	return false
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, 0o600))
}
