package jobfile

import (
	"fmt"
	"maps"
	"os"
	"strconv"
	"strings"

	"jobtop/jobs"
)

// Procfile ports, as foreman and honcho assign them: the base, plus 100
// for each process type before this one in the file, plus 1 for each
// instance of the type before this one.
const (
	defaultBasePort = 5000
	portsPerType    = 100
	maxInstances    = 100
)

// procType is one "name: command" line of a Procfile.
type procType struct {
	name, command string
	line, col     int
}

// parseProcfile reads "name: command" lines as foreman, honcho and
// overmind do: blank lines and lines starting with # are skipped; names
// are letters, digits, "-" and "_". Every job runs its command with
// /bin/sh in the file's directory, with the env files' variables, PORT
// and PS (see LoadOptions), starts at once and is never restarted.
func parseProcfile(path, dir string, data []byte, o LoadOptions) (*Plan, error) {
	plan := &Plan{Path: path, Format: FormatProcfile, Dir: dir, Files: []string{path}}
	types, errs := readProcTypes(path, data)
	dotenv := o.defaultEnv(dir, false, false)
	errs = append(errs, dotenv.errs...)
	plan.EnvFiles = dotenv.files
	counts, ferrs := parseFormation(o.Formation, types)
	errs = append(errs, ferrs...)
	base, perr := basePort(o.Port, dotenv.env)
	if perr != nil {
		errs = append(errs, perr)
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	plan.Env = dotenv.env
	for i, t := range types {
		n := counts(t.name)
		if base+portsPerType*i+max(n-1, 0) > 65535 {
			if o.Port != 0 { // the flag's base, not the file's PORT
				return nil, ErrorList{{File: "--port", Flag: true, Msg: fmt.Sprintf("%d leaves job %q (%s:%d) a port past 65535: give a lower --port", base, t.name, path, t.line)}}
			}
			return nil, ErrorList{{File: path, Line: t.line, Msg: fmt.Sprintf("job %q would get a port past 65535 (base %d): give a lower --port", t.name, base)}}
		}
		for k := 1; k <= n; k++ {
			ps := t.name + "." + strconv.Itoa(k)
			name := t.name
			if o.Formation != "" {
				name = ps
			}
			env := maps.Clone(dotenv.env)
			if env == nil {
				env = map[string]string{}
			}
			env["PORT"] = strconv.Itoa(base + portsPerType*i + k - 1)
			env["PS"] = ps
			spec := jobs.Spec{Name: name, Command: t.command, Dir: dir, Env: env}
			if err := spec.Validate(); err != nil {
				return nil, ErrorList{{File: path, Line: t.line, Msg: fmt.Sprintf("job %q: %v", t.name, err)}}
			}
			plan.Jobs = append(plan.Jobs, Job{Name: name, Spec: spec, Autostart: true, Line: t.line, Col: t.col})
			plan.Order = append(plan.Order, name)
		}
	}
	if len(plan.Jobs) == 0 {
		return nil, ErrorList{{File: "--formation", Flag: true, Msg: fmt.Sprintf("%q runs no job: give a count above 0", o.Formation)}}
	}
	return plan, nil
}

// readProcTypes reads the file's lines; a line that is not "name:
// command" is an error at its line.
func readProcTypes(path string, data []byte) ([]procType, ErrorList) {
	var types []procType
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
		case checkProcName(name) != "":
			fail("%s", checkProcName(name))
		case command == "":
			fail("job %q has no command", name)
		case strings.ContainsRune(command, 0):
			fail("job %q: command contains a NUL byte", name)
		case defined[name] > 0:
			fail("job %q is already defined on line %d", name, defined[name])
		default:
			defined[name] = lineNo
			col := len(raw) - len(strings.TrimLeft(raw, " \t")) + 1
			types = append(types, procType{name: name, command: command, line: lineNo, col: col})
		}
	}
	if len(types) == 0 && len(errs) == 0 {
		errs = append(errs, &Error{File: path, Msg: "no jobs: write one \"name: command\" line per job"})
	}
	return types, errs
}

// checkProcName says what is wrong with a Procfile process type's name:
// foreman and honcho take letters, digits, "-" and "_" (a "." would mix
// with the instance number in web.1).
func checkProcName(name string) string {
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Sprintf("job name %q may only use ASCII letters, digits, \"-\" and \"_\" in a Procfile", name)
		}
	}
	return checkName(name)
}

// parseFormation reads -m: "web=2,worker=1", with all=N for the types not
// named (foreman's rule: a type not named runs all= instances, none when
// all is not given). An empty formation runs one of each.
func parseFormation(formation string, types []procType) (func(string) int, ErrorList) {
	one := func(string) int { return 1 }
	if strings.TrimSpace(formation) == "" {
		return one, nil
	}
	var errs ErrorList
	fail := func(format string, args ...any) {
		errs = append(errs, &Error{File: "--formation", Flag: true, Msg: fmt.Sprintf(format, args...)})
	}
	all := 0
	counts := map[string]int{}
	given := map[string]bool{}
	for _, pair := range strings.Split(strings.Join(strings.Fields(formation), ""), ",") {
		name, num, found := strings.Cut(pair, "=")
		n, err := strconv.Atoi(num)
		switch {
		case !found || name == "":
			fail("%q: want TYPE=COUNT, e.g. web=2,worker=1 (all=N for every type)", pair)
			continue
		case given[name]:
			fail("%q: %s is given a count twice", pair, name)
			continue
		case err != nil || n < 0:
			fail("%q: the count must be a whole number, 0 or more", pair)
			continue
		case n > maxInstances:
			fail("%q: at most %d instances of a type", pair, maxInstances)
			continue
		}
		given[name] = true
		if name == "all" {
			all = n
			continue
		}
		known := false
		names := make([]string, len(types))
		for i, t := range types {
			names[i] = t.name
			known = known || t.name == name
		}
		if !known && len(types) > 0 {
			fail("%q: the Procfile has no process type %q (it has %s)", pair, name, strings.Join(names, ", "))
			continue
		}
		counts[name] = n
	}
	return func(name string) int {
		if n, ok := counts[name]; ok {
			return n
		}
		return all
	}, errs
}

// basePort is the first port: --port, else PORT from the env files, else
// from the environment, else 5000.
func basePort(flag int, dotenv map[string]string) (int, *Error) {
	if flag != 0 {
		if flag < 1 || flag > 65535 {
			return 0, &Error{File: "--port", Flag: true, Msg: fmt.Sprintf("%d is not a port number (1-65535)", flag)}
		}
		return flag, nil
	}
	from, v := "the env file", dotenv["PORT"]
	if v == "" {
		from, v = "the environment", os.Getenv("PORT")
	}
	if v == "" {
		return defaultBasePort, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 65535 {
		return 0, &Error{File: "PORT", Msg: fmt.Sprintf("%q from %s is not a port number (1-65535): set another or give --port", v, from)}
	}
	return n, nil
}
