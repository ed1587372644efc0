package control

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A far jobtop from before --answer-timeout refuses the flag; the client
// dials again without it, and leaves it off from then on, so a
// --host-timeout that is not the default still reaches an older far
// jobtop.
func TestHostClientDialsAnOldFarJobtopWithoutAnswerTimeout(t *testing.T) {
	bin := t.TempDir()
	log := filepath.Join(bin, "far-commands")
	ssh := fmt.Sprintf(`#!/bin/sh
for a; do last="$a"; done
echo "$last" >> %s
case "$last" in *--answer-timeout*) echo "jobtop: unknown flag: --answer-timeout" >&2; exit 2;; esac
printf 'jobtop-api %d\n'
exec cat
`, log, APIVersion)
	require.NoError(t, os.WriteFile(filepath.Join(bin, sshProgram), []byte(ssh), 0o755))
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))

	d := &hostDialer{host: Host{Addr: "b", AnswerTimeout: 45 * time.Second}}
	for i := 0; i < 2; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		conn, err := d.dial(ctx)
		cancel()
		require.NoError(t, err, "dial %d", i)
		require.NoError(t, conn.Close())
	}
	b, err := os.ReadFile(log)
	require.NoError(t, err)
	plain := fmt.Sprintf("jobtop dial-stdio --api %d", APIVersion)
	assert.Equal(t, []string{plain + " --answer-timeout 30s", plain, plain}, strings.Split(strings.TrimSpace(string(b)), "\n"),
		"once refused, the flag is left off")
}
