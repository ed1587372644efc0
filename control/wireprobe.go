package control

import (
	"jobtop/jobs"
	"jobtop/probe"
)

// ProbeRequest is a jobs.ProbeCheck on the wire, written as a job file
// writes a probe: one of http (with status and headers), tcp or exec, and
// its timing ("1s"); what is left out takes the engine's defaults.
type ProbeRequest struct {
	HTTP         string            `json:"http,omitempty"`
	Status       int               `json:"status,omitempty"`
	Headers      map[string]string `json:"headers,omitempty"`
	TCP          string            `json:"tcp,omitempty"`
	Exec         string            `json:"exec,omitempty"`
	Interval     Duration          `json:"interval,omitempty"`
	Timeout      Duration          `json:"timeout,omitempty"`
	InitialDelay Duration          `json:"initial_delay,omitempty"`
	Failures     int               `json:"failures,omitempty"`
}

// given says whether any field of a probe was given.
func (r ProbeRequest) given() bool {
	return r.HTTP != "" || r.Status != 0 || len(r.Headers) > 0 || r.TCP != "" || r.Exec != "" ||
		r.Interval != "" || r.Timeout != "" || r.InitialDelay != "" || r.Failures != 0
}

// check turns the request into a jobs.ProbeCheck; field names it in
// errors ("ready", "health").
func (r ProbeRequest) check(field string) (jobs.ProbeCheck, error) {
	var c jobs.ProbeCheck
	kinds := 0
	var err error
	if r.HTTP != "" {
		kinds++
		c.Probe, err = probe.NewHTTP(r.HTTP, r.Status, r.Headers)
	} else if r.Status != 0 || len(r.Headers) > 0 {
		return c, badRequest("%s: status and headers apply to an http probe only", field)
	}
	if r.TCP != "" {
		kinds++
		if err == nil {
			c.Probe, err = probe.NewTCP(r.TCP)
		}
	}
	if r.Exec != "" {
		kinds++
		if err == nil {
			c.Probe, err = probe.NewExec(r.Exec, "")
		}
	}
	switch {
	case kinds > 1:
		return c, badRequest("%s: give one probe (http, tcp or exec), not %d", field, kinds)
	case err != nil:
		return c, badRequest("%s: %v", field, err)
	case kinds == 0 && (r.Interval != "" || r.Timeout != "" || r.InitialDelay != "" || r.Failures != 0):
		return c, badRequest("%s: interval, timeout, initial_delay or failures without a probe: give http, tcp or exec", field)
	case kinds == 0:
		return c, badRequest("%s: no probe: give http, tcp or exec", field)
	case r.Failures < 0:
		return c, badRequest("%s.failures %d is negative", field, r.Failures)
	}
	c.Failures = r.Failures
	if c.Interval, err = parseDuration(field+".interval", r.Interval); err != nil {
		return c, err
	}
	if c.Timeout, err = parseDuration(field+".timeout", r.Timeout); err != nil {
		return c, err
	}
	c.InitialDelay, err = parseDuration(field+".initial_delay", r.InitialDelay)
	return c, err
}

// probeRequest is the request for a probe check; the zero request for
// none (or a kind of probe the wire does not carry).
func probeRequest(c jobs.ProbeCheck) ProbeRequest {
	r := ProbeRequest{
		Interval: formatDuration(c.Interval), Timeout: formatDuration(c.Timeout),
		InitialDelay: formatDuration(c.InitialDelay), Failures: c.Failures,
	}
	switch p := c.Probe.(type) {
	case *probe.HTTP:
		r.HTTP, r.Status, r.Headers = p.URL, p.Status, p.Headers
	case *probe.TCP:
		r.TCP = p.Addr
	case *probe.Exec:
		r.Exec = p.Command
	default:
		return ProbeRequest{}
	}
	return r
}
