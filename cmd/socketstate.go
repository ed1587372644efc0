package cmd

import (
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"jobtop/jobs"
)

// socketStatePath names the file in the state directory where the
// instances on socket, one after another, keep what (the "ids" they
// took: jobs.Options.IDPath): under sockets/, named after the socket's
// path. Unlike the record next to the socket (its ".keeper"), it
// outlives the runtime directory (a reboot, a logout).
func socketStatePath(socket, what string) (string, error) {
	state, err := jobs.DefaultStateDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(state, "sockets")
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	return filepath.Join(dir, url.PathEscape(strings.TrimPrefix(socket, "/"))+"."+what), nil
}
