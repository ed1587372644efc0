package jobfile

import (
	"regexp"

	"jobtop/jobs"
	"jobtop/probe"
)

// probeFields reads a probe's keys into c: http, tcp or exec, with status
// (http only), interval, timeout, initial_delay and failures. kinds
// collects the kinds given, settings the timing keys given.
func (y *yamlFile) probeFields(c *jobs.ProbeCheck, kinds, settings *[]entry) fields {
	status := 0 // read first: see orderProbeKeys
	build := func(e entry, make func(string) (jobs.Probe, error)) {
		*kinds = append(*kinds, e)
		s, ok := y.text(e)
		if !ok {
			return
		}
		p, err := make(s)
		if err != nil {
			y.errorf(at(e), "%s: %v", e.path, err)
			return
		}
		c.Probe = p
	}
	positive := func(e entry) (ok bool) {
		*settings = append(*settings, e)
		d, ok := y.duration(e)
		if ok && d == 0 {
			y.errorf(at(e), "%s: must be more than 0", e.path)
			return false
		}
		return ok
	}
	return fields{
		"http": func(e entry) { build(e, func(s string) (jobs.Probe, error) { return probe.NewHTTP(s, status, nil) }) },
		"tcp":  func(e entry) { build(e, func(s string) (jobs.Probe, error) { return probe.NewTCP(s) }) },
		"exec": func(e entry) { build(e, func(s string) (jobs.Probe, error) { return probe.NewExec(s, "") }) },
		"status": func(e entry) {
			*settings = append(*settings, e)
			n, ok := y.count(e)
			if !ok {
				return
			}
			if n < 100 || n > 599 {
				y.errorf(e.value, "%s: %d is not an HTTP status (100-599)", e.path, n)
				return
			}
			status = n
		},
		"interval": func(e entry) {
			if positive(e) {
				c.Interval, _ = y.duration(e)
			}
		},
		"timeout": func(e entry) {
			if positive(e) {
				c.Timeout, _ = y.duration(e)
			}
		},
		"initial_delay": func(e entry) {
			*settings = append(*settings, e)
			c.InitialDelay, _ = y.duration(e)
		},
		"failures": func(e entry) {
			*settings = append(*settings, e)
			n, ok := y.count(e)
			if ok && n == 0 {
				y.errorf(e.value, "%s: must be 1 or more", e.path)
				return
			}
			c.Failures = n
		},
	}
}

// checkProbeKeys reports a probe given more than once, status without
// http, and (when none may be missing) no probe at all.
func (y *yamlFile) checkProbeKeys(e entry, kinds, settings []entry) {
	switch {
	case len(kinds) > 1:
		y.errorf(kinds[1].key, "%s: give one of http, tcp or exec, not both %s and %s", e.path, kinds[0].name, kinds[1].name)
	case len(kinds) == 0 && len(settings) > 0:
		y.errorf(settings[0].key, "%s: %s applies to a probe: give http, tcp or exec", e.path, settings[0].name)
	}
	for _, s := range settings {
		if s.name == "status" && (len(kinds) != 1 || kinds[0].name != "http") {
			y.errorf(s.key, "%s: status applies to an http probe only", e.path)
		}
	}
}

// readReady reads ready: {log: REGEX}, {after: DURATION}, or a probe:
// {http: URL}, {tcp: HOST:PORT} or {exec: COMMAND} with its timing.
func (y *yamlFile) readReady(e entry) jobs.ReadyCheck {
	var rc jobs.ReadyCheck
	var kinds, settings, other []entry
	entries, ok := y.mapping(e)
	fs := y.probeFields(&rc.Probe, &kinds, &settings)
	fs["log"] = func(e entry) {
		other = append(other, e)
		s, ok := y.text(e)
		if !ok {
			return
		}
		if _, err := regexp.Compile(s); err != nil {
			y.errorf(e.value, "%s: bad regular expression: %v", e.path, err)
			return
		}
		if s == "" {
			y.errorf(at(e), "%s: the pattern is empty", e.path)
		}
		rc.LogPattern = s
	}
	fs["after"] = func(e entry) {
		other = append(other, e)
		rc.After, _ = y.duration(e)
	}
	y.readFields(e.path, orderProbeKeys(entries), fs)
	all := append(append([]entry(nil), other...), kinds...)
	switch {
	case !ok:
	case len(entries) == 0:
		y.errorf(e.key, "%s: give log: REGEX (ready when an output line matches), after: DURATION, or a probe: http: URL, tcp: HOST:PORT or exec: COMMAND", e.path)
	case len(all) > 1:
		y.errorf(all[1].key, "%s: give one of log, after, http, tcp or exec, not both %s and %s", e.path, all[0].name, all[1].name)
	case len(other) == 1 && len(settings) > 0:
		y.errorf(settings[0].key, "%s: %s applies to a probe (http, tcp or exec), not to %s", e.path, settings[0].name, other[0].name)
	default:
		y.checkProbeKeys(e, kinds, settings)
	}
	return rc
}

// readHealth reads health: a probe (http, tcp or exec) with its timing.
func (y *yamlFile) readHealth(e entry) jobs.ProbeCheck {
	var c jobs.ProbeCheck
	var kinds, settings []entry
	entries, ok := y.mapping(e)
	y.readFields(e.path, orderProbeKeys(entries), y.probeFields(&c, &kinds, &settings))
	if ok && len(entries) == 0 {
		y.errorf(e.key, "%s: give a probe: http: URL, tcp: HOST:PORT or exec: COMMAND", e.path)
		return c
	}
	y.checkProbeKeys(e, kinds, settings)
	return c
}

// orderProbeKeys puts status before the other keys, so the HTTP probe is
// built knowing it.
func orderProbeKeys(entries []entry) []entry {
	out := make([]entry, 0, len(entries))
	for _, e := range entries {
		if e.name == "status" {
			out = append(out, e)
		}
	}
	for _, e := range entries {
		if e.name != "status" {
			out = append(out, e)
		}
	}
	return out
}
