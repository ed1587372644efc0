//go:build unix && !linux

package keeper

import "os"

// selfPath names this program's executable as the system reports it (on
// macOS and the BSDs there is no /proc/self/exe link that survives the
// file being replaced).
func selfPath() string {
	if p, err := os.Executable(); err == nil {
		return p
	}
	return os.Args[0]
}
