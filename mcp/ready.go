package mcp

import (
	"errors"
	"time"

	"jobtop/control"
)

// ReadyArg is run_job's ready check: when the job counts as ready, for
// wait_for "ready" (and for the person's view of it).
type ReadyArg struct {
	Log   string   `json:"log,omitempty" jsonschema:"ready when an output line matches this regex (Go RE2)"`
	HTTP  string   `json:"http,omitempty" jsonschema:"ready once a GET of this URL answers 200-399, e.g. http://127.0.0.1:3000/"`
	TCP   string   `json:"tcp,omitempty" jsonschema:"ready once HOST:PORT accepts a connection, e.g. 127.0.0.1:5432"`
	Exec  string   `json:"exec,omitempty" jsonschema:"ready once this shell command exits 0, e.g. pg_isready -q (run in the job's directory and environment)"`
	After Duration `json:"after,omitempty" jsonschema:"ready this long after it starts"`
}

// readyRequest is the API's form of the check; nil for none.
func (r *ReadyArg) readyRequest() (*control.ReadyRequest, error) {
	if r == nil {
		return nil, nil
	}
	given := 0
	for _, s := range []string{r.Log, r.HTTP, r.TCP, r.Exec} {
		if s != "" {
			given++
		}
	}
	if r.After > 0 {
		given++
	}
	if given != 1 {
		return nil, errors.New(`ready: give exactly one of log (a regex), http (a URL), tcp (HOST:PORT), exec (a command) or after (a duration), e.g. {"http": "http://127.0.0.1:3000/"}`)
	}
	if r.Log != "" {
		if _, err := compilePattern("ready.log", r.Log); err != nil {
			return nil, err
		}
	}
	req := &control.ReadyRequest{LogPattern: r.Log, ProbeRequest: control.ProbeRequest{HTTP: r.HTTP, TCP: r.TCP, Exec: r.Exec}}
	if r.After > 0 {
		req.After = control.Duration(time.Duration(r.After).String())
	}
	return req, nil
}

// noCheckNote tells the model what "ready" meant for a job without a
// ready check.
const noCheckNote = `the job has no ready check, so "ready" only means it started; give run_job ready (http, tcp, log or exec) to wait until it serves, or wait_for a line it prints when it is up`
