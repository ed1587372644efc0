package e2e

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Over ssh as here, the commands that read or act on existing jobs start
// no far instance: they say none runs there, and the next one still finds
// none. run starts one.
func TestSSHReadCommandsStartNoFarInstance(t *testing.T) {
	bin := binary(t)
	h := startSSHD(t)
	h.installJobtop(t, bin)
	sock := filepath.Join(h.farDir, "r.sock")
	r := newRemote(t, bin, h, "--remote-socket", sock)
	none := "no jobtop is listening on host 127.0.0.1:" + strconv.Itoa(h.port) + ", " + sock

	for _, args := range [][]string{{"ls"}, {"status", "1"}, {"logs", "1"}, {"wait", "1"}, {"kill", "1"}, {"rm", "1"}, {"shutdown"}, {"ls"}} {
		_, stderr, code := r.run(args...)
		assert.Equal(t, 1, code, "jobtop --host %v", args)
		assert.Contains(t, stderr, none, "jobtop --host %v", args)
	}

	r.shutdownOnCleanup()
	assert.Equal(t, "1\n", r.ok("run", "--name", "web", "--", "exec sleep 300"), "run starts the far instance")
	assert.Contains(t, r.ok("ls"), "web")
}
