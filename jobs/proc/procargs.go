//go:build unix

package proc

import "encoding/binary"

// envFromProcargs2 is the environment in what macOS's sysctl
// kern.procargs2 returns for a process (proc_darwin.go's Env; it builds
// on every Unix so its tests run here):
//
//	argc (int32) | exec path \0 | \0 padding | argv[0] \0 ... argv[argc-1] \0 | env \0 ... | \0 | apple strings
//
// The environment ends at the first empty string; the strings after it
// are the kernel's own. nil for a buffer that does not parse.
func envFromProcargs2(b []byte) []string {
	if len(b) < 4 {
		return nil
	}
	argc := int(int32(binary.LittleEndian.Uint32(b)))
	b = b[4:]
	next := func() (string, bool) { // the string up to the next NUL
		for i, c := range b {
			if c == 0 {
				s := string(b[:i])
				b = b[i+1:]
				return s, true
			}
		}
		return "", false
	}
	if _, ok := next(); !ok { // the exec path
		return nil
	}
	for len(b) > 0 && b[0] == 0 { // its padding
		b = b[1:]
	}
	for ; argc > 0; argc-- {
		if _, ok := next(); !ok {
			return nil
		}
	}
	var env []string
	for {
		s, ok := next()
		if !ok || s == "" {
			return env
		}
		env = append(env, s)
	}
}
