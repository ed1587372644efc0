package jobfile

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"jobtop/jobs"
	"jobtop/probe"
)

// pcProbe is a readiness_probe or liveness_probe as read, before its
// fields are rendered for each replica.
type pcProbe struct {
	e                        entry
	execCommand, execDir     textField
	host, path, scheme, port textField
	isHTTP                   bool
	headers                  map[string]string
	status                   int
	timing                   jobs.ProbeCheck
}

// readPCProbe reads a probe: exec {command, working_dir} or http_get
// {host, port, path, scheme, headers, status_code}, with
// initial_delay_seconds, period_seconds (default 10), timeout_seconds,
// success_threshold and failure_threshold.
func (p *pcFile) readPCProbe(e entry) *pcProbe {
	pr := &pcProbe{e: e, status: pcDefaultStatus,
		timing: jobs.ProbeCheck{Interval: pcDefaultPeriod * time.Second}}
	entries, ok := p.mapping(e)
	if !ok {
		return nil
	}
	var kinds []ast.Node // the keys of exec and http_get
	var grpc *entry      // a grpc probe: known, not carried out
	// 0 is "the default" to process-compose's ValidateAndSetDefaults
	// (period 10, timeout 1, failures 3), as it is to jobs.ProbeCheck
	// but for the period, whose default is set above: a 0 sets nothing.
	// A negative number is still refused (seconds says so).
	secs := func(set func(time.Duration)) func(entry) {
		return func(e entry) {
			if n, ok := p.seconds(e); ok && n > 0 {
				set(time.Duration(n) * time.Second)
			}
		}
	}
	text := func(f *textField) func(entry) {
		return func(e entry) {
			if v, ok := p.text(e); ok {
				*f = textField{e: e, text: v, set: true}
			}
		}
	}
	p.readKnown(e.path, entries, fields{
		"exec": func(e entry) {
			kinds = append(kinds, e.key)
			inner, _ := p.mapping(e)
			p.readKnown(e.path, inner, fields{"command": text(&pr.execCommand), "working_dir": text(&pr.execDir)})
			if !pr.execCommand.set {
				p.errorf(e.key, "%s: give command", e.path)
			}
		},
		"http_get": func(e entry) {
			kinds = append(kinds, e.key)
			pr.isHTTP = true
			inner, _ := p.mapping(e)
			p.readKnown(e.path, inner, fields{
				"host": text(&pr.host), "path": text(&pr.path), "scheme": text(&pr.scheme),
				"port": text(&pr.port), "num_port": text(&pr.port),
				"headers": func(e entry) { pr.headers = p.headers(e) },
				"status_code": func(e entry) {
					if n, ok := p.count(e); ok {
						pr.status = n
					}
				},
			})
		},
		"grpc":                  func(e entry) { grpc = &e },
		"initial_delay_seconds": secs(func(d time.Duration) { pr.timing.InitialDelay = d }),
		"period_seconds":        secs(func(d time.Duration) { pr.timing.Interval = d }),
		"timeout_seconds":       secs(func(d time.Duration) { pr.timing.Timeout = d }),
		"failure_threshold": func(e entry) {
			if n, ok := p.seconds(e); ok && n > 0 {
				pr.timing.Failures = n
			}
		},
		"success_threshold": func(e entry) {
			if n, ok := p.seconds(e); ok && n > 1 {
				p.warn.add(e.key, "success_threshold", fmt.Sprintf("%s: %d is not supported: one passing check counts (process-compose does not use it either)", e.path, n))
			}
		},
	})
	switch {
	case len(kinds) == 0 && grpc != nil:
		p.errorf(grpc.key, "%s: not supported: jobtop has no gRPC health check; give exec instead, e.g. exec: {command: grpc_health_probe -addr=%s}", grpc.path, p.grpcAddress(*grpc))
	case grpc != nil:
		other, _ := keyText(kinds[0])
		p.warn.add(grpc.key, "grpc", fmt.Sprintf("%s: not supported, ignored: jobtop has no gRPC health check; %s checks instead (process-compose uses it first too)", grpc.path, other))
	}
	switch {
	case len(kinds) == 0 && grpc != nil:
	case len(kinds) == 0:
		p.errorf(e.key, "%s: give exec or http_get", e.path)
	case len(kinds) > 1:
		where := e.key
		if last := kinds[len(kinds)-1]; p.origins.fileOf(last) != p.origins.fileOf(kinds[0]) {
			where = last // merged: the later file gave the second
		}
		p.errorf(where, "%s: give exec or http_get, not both", e.path)
	}
	return pr
}

// grpcAddress is a grpc probe's host:port as written (127.0.0.1 unless
// given, as process-compose's), for the exec probe to write instead.
func (p *pcFile) grpcAddress(e entry) string {
	host, port := "127.0.0.1", "PORT"
	entries, _ := p.mapping(e)
	for _, f := range entries {
		v, ok := scalarText(f.value)
		switch {
		case !ok || strings.TrimSpace(v) == "":
		case f.name == "host":
			host = strings.TrimSpace(v)
		case f.name == "port", f.name == "num_port":
			port = strings.TrimSpace(v)
		}
	}
	return net.JoinHostPort(host, port)
}

// headers reads http_get.headers: header names and their values.
func (p *pcFile) headers(e entry) map[string]string {
	entries, _ := p.mapping(e)
	out := make(map[string]string, len(entries))
	for _, h := range entries {
		if h.name == "" || strings.ContainsAny(h.name, " :\t\r\n") {
			p.errorf(h.key, "%s: %q is not a header name", e.path, h.name)
			continue
		}
		if v, ok := p.text(h); ok {
			out[h.name] = v
		}
	}
	return out
}

// buildProbe makes the probe of one replica, its fields rendered; an exec
// probe's working_dir is relative to the file, and defaults to the job's.
func (p *pcFile) buildProbe(pr *pcProbe, render func(textField) string) jobs.ProbeCheck {
	c := pr.timing
	if pr.isHTTP {
		scheme, host, path := "http", "127.0.0.1", "/"
		if pr.scheme.set {
			scheme = strings.ToLower(render(pr.scheme))
		}
		if pr.host.set {
			host = strings.TrimSpace(render(pr.host))
			if strings.Contains(host, "/") {
				p.errorf(at(pr.host.e), "%s: %q is not a host name: host is a host name or address (127.0.0.1, localhost), not a URL; give the rest as scheme:, port: and path:", pr.host.e.path, host)
				return jobs.ProbeCheck{}
			}
		}
		if pr.path.set {
			path = render(pr.path)
			if !strings.HasPrefix(path, "/") {
				path = "/" + path
			}
		}
		// Without a port, the URL has none (the scheme's default), as
		// process-compose builds it.
		// A host:port (with no port:) is kept so, as process-compose
		// puts host in the URL as written; an IPv6 address is
		// bracketed.
		hostPort := host
		if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil && strings.Contains(host, ":") {
			hostPort = "[" + strings.Trim(host, "[]") + "]"
		}
		if pr.port.set {
			port := strings.TrimSpace(render(pr.port))
			if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
				p.errorf(at(pr.port.e), "%s: %q is not a port (1-65535)", pr.port.e.path, port)
				return jobs.ProbeCheck{}
			}
			hostPort = net.JoinHostPort(strings.Trim(host, "[]"), port)
		}
		u := scheme + "://" + hostPort + path
		h, err := probe.NewHTTP(u, pr.status, pr.headers)
		if err != nil {
			p.errorf(pr.e.key, "%s: %v", pr.e.path, err)
			return jobs.ProbeCheck{}
		}
		c.Probe = h
		return c
	}
	if !pr.execCommand.set {
		return jobs.ProbeCheck{}
	}
	dir := ""
	if pr.execDir.set {
		dir = filepath.Join(p.dir, render(pr.execDir))
		if filepath.IsAbs(render(pr.execDir)) {
			dir = filepath.Clean(render(pr.execDir))
		}
	}
	ex, err := probe.NewExec(render(pr.execCommand), dir)
	if err != nil {
		p.errorf(at(pr.execCommand.e), "%s: %v", pr.execCommand.e.path, err)
		return jobs.ProbeCheck{}
	}
	c.Probe = ex
	return c
}
