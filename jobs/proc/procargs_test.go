//go:build unix

package proc

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
)

// procargs2 lays a buffer out the way XNU's kern.procargs2 does.
func procargs2(argc int32, parts ...string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(argc))
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

func TestEnvFromProcargs2(t *testing.T) {
	b := procargs2(3, "/bin/sh\x00\x00\x00\x00", "sh\x00", "\x00", "-c\x00",
		"PATH=/bin\x00JOBTOP_RUN=tok.7\x00\x00", "ptr_munge=\x00main_stack=\x00")
	env := envFromProcargs2(b)
	assert.Equal(t, []string{"PATH=/bin", "JOBTOP_RUN=tok.7"}, env,
		"an empty argument is an argument; the kernel's strings after the environment are not in it")
	v, ok := lookupEnv(env, "JOBTOP_RUN")
	assert.True(t, ok)
	assert.Equal(t, "tok.7", v)
	_, ok = lookupEnv(env, "JOBTOP_RU")
	assert.False(t, ok, "a prefix of a name is not the name")

	assert.Empty(t, envFromProcargs2(procargs2(1, "/bin/true\x00\x00true\x00\x00")), "no environment")
	for _, short := range [][]byte{nil, {1, 0}, procargs2(2, "/bin/sh"), procargs2(2, "/bin/sh\x00sh\x00"), procargs2(0, "/x\x00A=1")} {
		assert.NotPanics(t, func() { envFromProcargs2(short) })
	}
	assert.Nil(t, envFromProcargs2(procargs2(5, "/bin/sh\x00sh\x00")), "fewer arguments than argc")
}
