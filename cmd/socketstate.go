package cmd

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"jobtop/jobs"
)

// socketStatePath names the file in the state directory where the
// instances on socket, one after another, keep what (the "ids" they
// took: jobs.Options.IDPath; the "parallel" limit: keepLimit): under
// sockets/, named after the socket's path: its last element (for
// people), then a hash of the whole path, which a path of any length
// gives as 16 characters (rev59: the escaped path passed the 255 bytes a
// file name may have). Unlike the record next to the socket (its
// ".keeper"), it outlives the runtime directory (a reboot, a logout).
func socketStatePath(socket, what string) (string, error) {
	state, err := jobs.DefaultStateDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(state, "sockets")
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	sum := sha256.Sum256([]byte(socket))
	base := url.PathEscape(filepath.Base(socket))
	if len(base) > 64 {
		base = base[:64]
	}
	return filepath.Join(dir, base+"-"+hex.EncodeToString(sum[:8])+"."+what), nil
}

// socketStateAge is how long a socket's files in the state directory
// are kept unwritten: a socket used once (a test's, a project's
// JOBTOP_SOCKET) leaves none for good. Every instance writes its own as
// it starts, and its ID mark again as it ends.
const socketStateAge = 90 * 24 * time.Hour

// pruneSocketStates removes the files under the state directory's
// sockets/ (socketStatePath) that nothing wrote for socketStateAge, but
// socket's own.
func pruneSocketStates(socket string, now time.Time) {
	own, err := socketStatePath(socket, "")
	if err != nil {
		return
	}
	state, err := jobs.DefaultStateDir()
	if err != nil {
		return
	}
	dir := filepath.Join(state, "sockets")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), filepath.Base(own)) {
			continue
		}
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && now.Sub(info.ModTime()) > socketStateAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// keptLimitFile is what the "parallel" file holds, as `parallel --json`
// prints it.
type keptLimitFile struct {
	MaxRunning int `json:"max_running"`
}

// keepLimit keeps the instance's limit on jobs running at once in the
// state directory, as it is at first and after each change (`jobtop
// parallel`, a reload, the TUI), until ctx ends: the instance `jobtop
// run` starts in the background after this one has ended takes it
// (keptLimit), so a batch meant to run 2 at a time still does.
func keepLimit(ctx context.Context, m *jobs.Manager, socket string) {
	path, err := socketStatePath(socket, "parallel")
	if err != nil {
		return // (the instance could not start without its state directory)
	}
	go func() {
		for {
			changed := m.MaxRunningChanged()
			writeKeptLimit(path, m.MaxRunning())
			select {
			case <-changed:
			case <-ctx.Done():
				return
			}
		}
	}()
}

// writeKeptLimit replaces the kept limit: a reader finds the old one or
// the new one, whole. Best effort: without it, the next instance starts
// with no limit, and says none.
func writeKeptLimit(path string, n int) {
	b, _ := json.Marshal(keptLimitFile{MaxRunning: n}) //nolint:errcheck // an int marshals
	next := path + ".next"
	if os.WriteFile(next, append(b, '\n'), 0o600) != nil || os.Rename(next, path) != nil {
		os.Remove(next)
	}
}

// keptLimit is the limit on jobs running at once that the last instance
// on socket had (keepLimit); 0 for none, or none kept.
func keptLimit(socket string) int {
	path, err := socketStatePath(socket, "parallel")
	if err != nil {
		return 0
	}
	b, err := os.ReadFile(path)
	var kept keptLimitFile
	if err != nil || json.Unmarshal(b, &kept) != nil || kept.MaxRunning < 0 {
		return 0
	}
	return kept.MaxRunning
}
