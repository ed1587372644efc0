package jobfile

import (
	"fmt"
	"reflect"
	"strings"

	"jobtop/jobs"
)

// Changes is what a reload would do: which jobs of the new plan are new,
// which of the old one are gone, which run something different, and which
// are left alone. Names are in file order (Removed: the old file's).
type Changes struct {
	Added, Removed, Changed, Unchanged []string
	// Redescribed are the jobs not Changed whose description changed: a
	// reload gives them the new text and restarts nothing.
	Redescribed []string
	// Rewired are the jobs whose dependencies (depends_on) changed and
	// nothing else they run by: what a job depends on matters when it
	// starts, so a reload gives them the new ones for their next start
	// and restarts nothing (a process-compose process scaled up adds a
	// replica to each dependant's list). They count as Unchanged too.
	Rewired []string
	// Enabled and Disabled are the jobs whose autostart (process-compose:
	// disabled) was turned on or off: a reload starts an enabled one that
	// is not running, and stops a disabled one, as process-compose's
	// project update does. A job may be Changed as well.
	Enabled, Disabled []string
	// MaxParallel is the new file's max_parallel when it differs from the
	// old one's (0: no limit): a reload sets the running limit to it at
	// once. nil when it is the same (the limit is left as it is, also
	// one set at run time).
	MaxParallel *int
	// OptionsChanged says the log settings differ; they take effect when
	// jobtop starts again.
	OptionsChanged bool
}

// Diff compares the plan loaded before (prev; nil: none) with the one
// loaded now (next). A job is changed when its spec differs in anything
// it runs by (command, directory, environment, policies); its
// description is text for people, so it is not compared (a new
// description is noted in Redescribed), and its dependencies only
// decide when it starts (new ones are noted in Rewired). A job whose autostart flag
// changed is Enabled or Disabled (and Unchanged no more).
func Diff(prev, next *Plan) Changes {
	var c Changes
	var oldJobs []Job
	if prev != nil {
		oldJobs = prev.Jobs
		if prev.MaxParallel != next.MaxParallel {
			n := next.MaxParallel
			c.MaxParallel = &n
		}
		c.OptionsChanged = prev.Log != next.Log
	}
	before := make(map[string]Job, len(oldJobs))
	for _, j := range oldJobs {
		before[j.Name] = j
	}
	now := make(map[string]bool, len(next.Jobs))
	for _, j := range next.Jobs {
		now[j.Name] = true
		old, existed := before[j.Name]
		if !existed {
			c.Added = append(c.Added, j.Name)
			continue
		}
		switch {
		case old.Autostart && !j.Autostart:
			c.Disabled = append(c.Disabled, j.Name)
		case !old.Autostart && j.Autostart:
			c.Enabled = append(c.Enabled, j.Name)
		}
		switch {
		case !sameSpec(withoutDependencies(old.Spec), withoutDependencies(j.Spec)):
			c.Changed = append(c.Changed, j.Name)
			continue
		case old.Autostart == j.Autostart:
			c.Unchanged = append(c.Unchanged, j.Name)
		}
		if !sameSpec(old.Spec, j.Spec) {
			c.Rewired = append(c.Rewired, j.Name)
		}
		if old.Spec.Description != j.Spec.Description {
			c.Redescribed = append(c.Redescribed, j.Name)
		}
	}
	for _, j := range oldJobs {
		if !now[j.Name] {
			c.Removed = append(c.Removed, j.Name)
		}
	}
	return c
}

// sameSpec compares two specs, taking empty and nil maps and lists as
// equal.
func sameSpec(a, b jobs.Spec) bool {
	return reflect.DeepEqual(normalize(a), normalize(b))
}

// withoutDependencies is s without what it depends on.
func withoutDependencies(s jobs.Spec) jobs.Spec {
	s.DependsOn = nil
	return s
}

func normalize(s jobs.Spec) jobs.Spec {
	s.Description = ""
	if len(s.Argv) == 0 {
		s.Argv = nil
	}
	if len(s.Env) == 0 {
		s.Env = nil
	}
	if len(s.DependsOn) == 0 {
		s.DependsOn = nil
	}
	if len(s.SuccessExitCodes) == 0 {
		s.SuccessExitCodes = nil
	}
	return s
}

// Empty reports whether a reload would touch no job.
func (c Changes) Empty() bool {
	return len(c.Added) == 0 && len(c.Removed) == 0 && len(c.Changed) == 0 &&
		len(c.Enabled) == 0 && len(c.Disabled) == 0
}

// String says what changed in a line, for a status bar:
// "1 added (api), 2 changed (web, worker), 1 removed (cron)"; past
// namesShown names of a kind, "... and N more".
func (c Changes) String() string {
	var parts []string
	for _, g := range []struct {
		verb  string
		names []string
	}{{"added", c.Added}, {"changed", c.Changed}, {"with new depends_on", c.Rewired}, {"enabled", c.Enabled}, {"disabled", c.Disabled}, {"removed", c.Removed}} {
		if len(g.names) > 0 {
			parts = append(parts, fmt.Sprintf("%d %s (%s)", len(g.names), g.verb, someNames(g.names)))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "no job changed")
	}
	switch {
	case c.MaxParallel == nil:
	case *c.MaxParallel == 0:
		parts = append(parts, "max_parallel now no limit")
	default:
		parts = append(parts, fmt.Sprintf("max_parallel now %d", *c.MaxParallel))
	}
	if c.OptionsChanged {
		parts = append(parts, "log settings changed (they apply when jobtop starts again)")
	}
	return strings.Join(parts, ", ")
}

// namesShown is how many job names Changes.String lists of each kind: a
// reload of a 20,000-job file is not one line of 20,000 names.
const namesShown = 20

// someNames lists names, at most namesShown of them, then how many more.
func someNames(names []string) string {
	if len(names) <= namesShown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:namesShown], ", "), len(names)-namesShown)
}
