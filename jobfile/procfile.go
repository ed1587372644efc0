package jobfile

import (
	"fmt"
	"strings"

	"jobtop/jobs"
)

// parseProcfile reads "name: command" lines; blank lines and lines starting
// with # are skipped. Every job runs its command with /bin/sh in the
// file's directory, starts at once and is never restarted.
func parseProcfile(path, dir string, data []byte) (*Plan, error) {
	plan := &Plan{Path: path, Format: FormatProcfile, Dir: dir}
	var errs ErrorList
	defined := map[string]int{}
	for i, raw := range strings.Split(string(data), "\n") {
		lineNo := i + 1
		fail := func(format string, args ...any) {
			errs = append(errs, &Error{File: path, Line: lineNo, Msg: fmt.Sprintf(format, args...)})
		}
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, command, found := strings.Cut(line, ":")
		name, command = strings.TrimSpace(name), strings.TrimSpace(command)
		switch {
		case !found:
			fail("want \"name: command\", got %q", line)
			continue
		case checkName(name) != "":
			fail("%s", checkName(name))
			continue
		case command == "":
			fail("job %q has no command", name)
			continue
		case defined[name] > 0:
			fail("job %q is already defined on line %d", name, defined[name])
			continue
		}
		defined[name] = lineNo
		spec := jobs.Spec{Name: name, Command: command, Dir: dir}
		if err := spec.Validate(); err != nil {
			fail("job %q: %v", name, err)
			continue
		}
		col := len(raw) - len(strings.TrimLeft(raw, " \t")) + 1
		plan.Jobs = append(plan.Jobs, Job{Name: name, Spec: spec, Autostart: true, Line: lineNo, Col: col})
		plan.Order = append(plan.Order, name)
	}
	if len(plan.Jobs) == 0 && len(errs) == 0 {
		errs = append(errs, &Error{File: path, Msg: "no jobs: write one \"name: command\" line per job"})
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return plan, nil
}
