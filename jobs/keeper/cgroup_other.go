//go:build !linux

package keeper

import (
	"errors"
	"syscall"

	"jobtop/jobs/proc"
)

// cgroups are Linux's: elsewhere a keeper has none (newCgroups is nil),
// and goes by sessions, outputs and JOBTOP_RUN.
type cgroups struct{ dir string }

func newCgroups(string) (*cgroups, string) { return nil, "" }

func (c *cgroups) open(RunID) (int, error) { return -1, errors.ErrUnsupported }
func (c *cgroups) runOf(int) (RunID, bool) { return 0, false }
func (c *cgroups) ended(RunID)             {}
func (c *cgroups) sweep()                  {}
func (c *cgroups) close()                  {}

// InCgroup is every live process in a keeper's cgroup: none here.
func InCgroup(string) []proc.Proc { return nil }

// RemoveCgroup removes a keeper's cgroup: there are none here.
func RemoveCgroup(string) {}

func forkInto(*syscall.SysProcAttr, int) {}

func cgroupError(error) (sure, maybe bool) { return false, false }
