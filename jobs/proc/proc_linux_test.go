package proc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseStatWithParensInTheName(t *testing.T) {
	line := "42 (a) b (c)) S 7 42 42 0 -1 4194560 1 2 3 4 10 20 30 40 20 0 1 0 12345 1000 50 rest\n"
	p, err := parseStat(42, []byte(line))
	require.NoError(t, err)
	require.Equal(t, Proc{PID: 42, PPID: 7, PGID: 42, SID: 42, Start: 12345, CPU: 100, RSS: 50 * pageSize}, p)
	_, err = parseStat(1, []byte("1 (x) S 0 1"))
	require.Error(t, err)
}
