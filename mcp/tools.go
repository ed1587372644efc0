package mcp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"jobtop/control"
	"jobtop/jobs"
)

// addTools registers every tool.
func (s *Server) addTools(srv *sdk.Server) {
	addTool(s, srv, &sdk.Tool{
		Name: "run_job",
		Description: `Start a shell command as a background job in jobtop, where the person sees it live. Use it for anything that may run longer than a few seconds: builds, tests, dev servers, watchers.
Give command (run by /bin/sh -c) or argv (no shell). tty: true runs it on a terminal, for interactive programs (prompts, REPLs, installers, full-screen TUIs): then send_input types into it and read_screen shows its screen. stdin: "pipe" gives a job on pipes a stdin that send_input writes to (eof: true closes it); without either, the job reads nothing. wait_for waits in the same call: a regex an output line must match (e.g. "listening on|ready in"), "ready" (its ready check passed: give ready, e.g. {"http": "http://127.0.0.1:3000/"} or {"tcp": "127.0.0.1:5432"}; without one: once it runs), or "exit" (until it ends). The answer has the job's ID, its state and, after wait_for, the matching line or why the wait ended; then read_output reads its output.`,
		InputSchema: inputSchema[RunJobInput](func(p map[string]*jsonschema.Schema) {
			p["wait_timeout"].Description = `how long wait_for waits at most (default 60s, at most 10m); the job keeps running when it passes`
			enum(p["stdin"], "pipe")
		}),
	}, s.runJob)
	addTool(s, srv, &sdk.Tool{
		Name:        "list_jobs",
		Description: "List jobtop's jobs, oldest first (the newest 100 when there are more): ID, name, state, exit code, run time and last output line. Includes the person's own jobs.",
		InputSchema: inputSchema[ListJobsInput](func(p map[string]*jsonschema.Schema) {
			enum(p["state"], "active", "ended", "queued", "running", "stopping", "succeeded", "failed", "killed", "timed_out", "error", "created")
		}),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
	}, s.listJobs)
	addTool(s, srv, &sdk.Tool{
		Name:        "job_status",
		Description: "One job in full: state, exit code, command, cwd, pid, CPU and memory, run count, lines written, its log file, and its ready and health checks with what they found.",
		InputSchema: inputSchema[JobInput](nil),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
	}, s.jobStatus)
	s.addOutputTools(srv)
	s.addTerminalTools(srv)
	for _, a := range []struct{ name, desc string }{
		{"stop_job", "Stop a job gracefully: its stop signal (SIGTERM unless set otherwise; signal sends another, this time, e.g. INT for a Python script's KeyboardInterrupt handlers) to its whole process tree, then SIGKILL after its grace period (5s by default). Returns once it has ended."},
		{"kill_job", "Kill a job now: SIGKILL to its whole process tree, children and daemons included. Returns once it has ended."},
		{"restart_job", "Run a job again with the same command, under the same ID (a running one is stopped first). Output goes on after the old run's: read from your cursor, or from the job's lines count before the restart."},
		{"remove_job", "Forget a finished job (it must have ended: stop it first). Its log file stays."},
	} {
		t := &sdk.Tool{
			Name: a.name, Description: a.desc,
			InputSchema: inputSchema[JobInput](nil),
			Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(a.name != "restart_job")},
		}
		switch a.name {
		case "stop_job":
			t.InputSchema = inputSchema[StopJobInput](nil)
			addTool(s, srv, t, s.stopTool)
			continue
		case "kill_job":
			addTool(s, srv, t, s.endTool(a.name))
			continue
		}
		addTool(s, srv, t, s.actionTool(a.name))
	}
}

func ptr[T any](v T) *T { return &v }

// addTool registers a typed tool whose handler returns its text form and
// its structured output; s keeps its input schema (checkArguments).
func addTool[In, Out any](s *Server, srv *sdk.Server, t *sdk.Tool, h func(context.Context, *sdk.CallToolRequest, In) (string, Out, error)) {
	if schema, ok := t.InputSchema.(*jsonschema.Schema); ok {
		if s.schemas == nil {
			s.schemas = map[string]*jsonschema.Schema{}
		}
		s.schemas[t.Name] = schema
	}
	sdk.AddTool(srv, t, func(ctx context.Context, req *sdk.CallToolRequest, in In) (*sdk.CallToolResult, Out, error) {
		text, out, err := h(ctx, req, in)
		if err != nil {
			var zero Out
			if broke := (*connectionBroke)(nil); errors.As(err, &broke) {
				err = broke.words(s.opts.Client, "answering "+t.Name)
			}
			return nil, zero, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, out, nil
	})
}

// JobInput names one job.
type JobInput struct {
	ID JobRef `json:"id"`
}

// StopJobInput is stop_job's arguments.
type StopJobInput struct {
	ID     JobRef `json:"id"`
	Signal string `json:"signal,omitempty" jsonschema:"send this signal instead of the job's stop signal, this time (SIGKILL still follows the grace period): its name, with or without SIG, or its number, as jobtop stop --signal takes it (INT, SIGINT or 2)"`
}

// JobOutput is one job.
type JobOutput struct {
	Job JobSummary `json:"job"`
	// removed says a stopped or killed job was removed before the
	// answer (endTool's EndJobOutput.Removed).
	removed bool
}

// RunJobInput is run_job's arguments.
type RunJobInput struct {
	Command     string            `json:"command,omitempty" jsonschema:"a shell command line, run by /bin/sh -c; give this or argv"`
	Argv        []string          `json:"argv,omitempty" jsonschema:"a program and its arguments, run without a shell; give this or command"`
	Name        string            `json:"name,omitempty" jsonschema:"a short name (web, tests) to refer to the job by later; default: its program's name"`
	Cwd         string            `json:"cwd,omitempty" jsonschema:"working directory; a relative one starts from where jobtop mcp runs (the default)"`
	Env         map[string]string `json:"env,omitempty" jsonschema:"environment variables to add"`
	Ready       *ReadyArg         `json:"ready,omitempty" jsonschema:"when the job is ready (what wait_for ready waits for): one of log, http, tcp, exec or after; default: once it runs"`
	Timeout     Duration          `json:"timeout,omitempty" jsonschema:"stop the job after this long (default: never)"`
	WaitFor     string            `json:"wait_for,omitempty" jsonschema:"wait before answering: a regex an output line must match, ready, or exit"`
	WaitTimeout Duration          `json:"wait_timeout,omitempty"`
	TTY         bool              `json:"tty,omitempty" jsonschema:"run it on a terminal (200x50): for programs that ask questions, REPLs, full-screen programs, or that only show colours and progress on a terminal; type into it with send_input, see it with read_screen"`
	Stdin       string            `json:"stdin,omitempty" jsonschema:"pipe: give the job (not one with tty) a stdin pipe that send_input writes to, e.g. data for sort or wc, and eof: true ends; default: it reads nothing (/dev/null)"`
	After       []JobRef          `json:"after,omitempty" jsonschema:"jobs (IDs or names) that must succeed first: the job waits queued until each has, and fails without running if one fails"`
}

// RunJobOutput is run_job's answer.
type RunJobOutput struct {
	Job  JobSummary  `json:"job"`
	Wait *WaitResult `json:"wait,omitempty" jsonschema:"how the wait for wait_for ended"`
}

// maxArgBytes bounds a command, argv or pattern argument: the API takes
// at most 1 MiB of request, and a model never means more.
const maxArgBytes = 256 << 10

func (s *Server) runJob(ctx context.Context, req *sdk.CallToolRequest, in RunJobInput) (string, RunJobOutput, error) {
	size := len(in.Command)
	for _, a := range in.Argv {
		size += len(a)
	}
	for k, v := range in.Env {
		size += len(k) + len(v)
	}
	if size > maxArgBytes {
		return "", RunJobOutput{}, fmt.Errorf("the command, argv and env are %d bytes together; at most %d: write long scripts to a file and run that", size, maxArgBytes)
	}
	var until waitUntil
	if in.WaitFor != "" {
		var err error
		if until, err = parseUntil("wait_for", in.WaitFor); err != nil {
			return "", RunJobOutput{}, err
		}
	}
	cwd, err := s.workDir(in.Cwd)
	if err != nil {
		return "", RunJobOutput{}, err
	}
	ready, err := in.Ready.readyRequest()
	if err != nil {
		return "", RunJobOutput{}, err
	}
	start := control.StartRequest{
		Name: in.Name, Command: in.Command, Argv: in.Argv, Cwd: cwd, Env: in.Env, Environ: s.opts.Environ, Ready: ready,
		Origin: "mcp", Client: clientName(req), TTY: in.TTY, Stdin: in.Stdin,
	}
	if in.Timeout > 0 {
		start.Timeout = control.Duration(time.Duration(in.Timeout).String())
	}
	for _, ref := range in.After {
		if ref.Name == "" && ref.ID == 0 {
			return "", RunJobOutput{}, errors.New(`after: give each job's ID (a number) or name; one is empty (list_jobs lists them)`)
		}
		if ref.Name != "" {
			start.After = append(start.After, control.JobRef(ref.Name))
		} else {
			start.After = append(start.After, control.JobRef(strconv.Itoa(ref.ID)))
		}
	}
	info, err := s.startJob(ctx, start)
	var apiErr *control.APIError
	if h := s.opts.Client.Host(); h != nil && errors.As(err, &apiErr) && strings.HasPrefix(apiErr.Message, `cwd "`) {
		// The far instance checked the directory: say where.
		return "", RunJobOutput{}, fmt.Errorf("the job did not start: %s on host %s", apiErr.Message, h.Name())
	}
	if err != nil && context.Cause(ctx) != nil && ctx.Err() != nil {
		// Cut while the instance had the request (it stopped, say): it
		// may well have started the job before it stopped answering,
		// and an agent that starts it again runs it twice.
		return "", RunJobOutput{}, fmt.Errorf("the job may have started: its start was not answered (%w); list_jobs shows whether it did (%s) once the instance answers", context.Cause(ctx), describeStart(start))
	}
	if err != nil {
		return "", RunJobOutput{}, fmt.Errorf("the job did not start: %w", err)
	}
	out := RunJobOutput{Job: summarize(info, time.Now())}
	text := "started job " + out.Job.line()
	if in.WaitFor == "" {
		return text + "\nread_output reads its output; wait_job waits for a line or its end.", out, nil
	}
	res, err := s.wait(ctx, req, info.ID, until, time.Duration(in.WaitTimeout))
	if err != nil {
		return "", RunJobOutput{}, fmt.Errorf("job %d started, but waiting for it failed: %w", info.ID, err)
	}
	out.Job = res.Job
	out.Wait = &res
	return "started job " + fmt.Sprint(info.ID) + "\n" + res.text(), out, nil
}

// ListJobsInput is list_jobs' arguments.
type ListJobsInput struct {
	State string `json:"state,omitempty" jsonschema:"only jobs in this state; active: queued, running or stopping; ended: the rest"`
	Name  string `json:"name,omitempty" jsonschema:"only jobs whose name contains this text, or matches it as a glob when it has *, ? or [ (web-*; several comma-separated, as jobtop ls --name)"`
}

// ListJobsOutput is list_jobs' answer.
type ListJobsOutput struct {
	Jobs []JobSummary `json:"jobs"`
	// Omitted counts older matching jobs left out.
	Omitted int `json:"omitted,omitempty" jsonschema:"older matching jobs left out of the list"`
}

// nameFits says whether list_jobs' name picks a job's name: a glob when it
// has glob characters, as the CLI's --name and the API's name= take it
// ("web-*" would otherwise match no name at all), else text the name
// contains.
func nameFits(pattern, name string) bool {
	if strings.ContainsAny(pattern, "*?[") {
		return control.NameMatches(pattern, name)
	}
	return strings.Contains(name, pattern)
}

// maxListJobs bounds list_jobs' answer.
const maxListJobs = 100

func (s *Server) listJobs(ctx context.Context, _ *sdk.CallToolRequest, in ListJobsInput) (string, ListJobsOutput, error) {
	if strings.ContainsAny(in.Name, "*?[") {
		for _, glob := range strings.Split(in.Name, ",") {
			if !control.ValidNamePattern(glob) {
				return "", ListJobsOutput{}, fmt.Errorf("name %q is not a valid pattern: use * and ? and [...] as in shell patterns, or plain text the name contains", glob)
			}
		}
	}
	list, err := s.opts.Client.Jobs(ctx)
	if err != nil {
		return "", ListJobsOutput{}, s.apiError(err)
	}
	now := time.Now()
	out := ListJobsOutput{Jobs: []JobSummary{}}
	for _, j := range list {
		if !nameFits(in.Name, j.Name) {
			continue
		}
		switch in.State {
		case "":
		case "active":
			if j.State.Done() {
				continue
			}
		case "ended":
			if !j.State.Done() {
				continue
			}
		default:
			if string(j.State) != in.State {
				continue
			}
		}
		out.Jobs = append(out.Jobs, summarize(j, now))
	}
	if len(out.Jobs) > maxListJobs {
		out.Omitted = len(out.Jobs) - maxListJobs
		out.Jobs = out.Jobs[out.Omitted:]
	}
	if len(out.Jobs) == 0 {
		if len(list) == 0 {
			return "no jobs; run_job starts one", out, nil
		}
		if len(list) == 1 {
			return "no job matches (there is 1 job)", out, nil
		}
		return fmt.Sprintf("no job matches (there are %d jobs)", len(list)), out, nil
	}
	var b strings.Builder
	if out.Omitted > 0 {
		fmt.Fprintf(&b, "%s left out\n", plural(out.Omitted, "older job"))
	}
	for _, j := range out.Jobs {
		b.WriteString(j.line() + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n"), out, nil
}

// JobStatusOutput is job_status's answer.
type JobStatusOutput struct {
	Job JobDetail `json:"job"`
}

func (s *Server) jobStatus(ctx context.Context, _ *sdk.CallToolRequest, in JobInput) (string, JobStatusOutput, error) {
	info, err := s.resolve(ctx, in.ID)
	if err != nil {
		return "", JobStatusOutput{}, err
	}
	d := detail(info, time.Now())
	return d.text(), JobStatusOutput{Job: d}, nil
}

// EndJobOutput is stop_job's and kill_job's answer.
type EndJobOutput struct {
	Job     JobSummary `json:"job"`
	Removed bool       `json:"removed" jsonschema:"the job ended and was removed before the answer (by the instance's cap on finished jobs, or by another client): job is as it was last, and its ID names no job now"`
}

// endTool is the handler of kill_job: act's answer, and whether
// the job was removed once ended, as the API says it.
func (s *Server) endTool(name string) func(context.Context, *sdk.CallToolRequest, JobInput) (string, EndJobOutput, error) {
	return func(ctx context.Context, _ *sdk.CallToolRequest, in JobInput) (string, EndJobOutput, error) {
		text, out, err := s.act(ctx, name, in.ID, "")
		return text, EndJobOutput{Job: out.Job, Removed: out.removed}, err
	}
}

// stopTool is the handler of stop_job: endTool's, with the signal the
// call names in place of the job's stop signal, read as jobtop stop
// --signal reads it.
func (s *Server) stopTool(ctx context.Context, _ *sdk.CallToolRequest, in StopJobInput) (string, EndJobOutput, error) {
	var sig string
	if in.Signal != "" {
		parsed, err := jobs.ParseSignal(in.Signal)
		if err != nil {
			return "", EndJobOutput{}, fmt.Errorf("signal: %w; a signal is its name, with or without SIG, or its number: INT, SIGINT or 2", err)
		}
		sig = parsed.String()
	}
	text, out, err := s.act(ctx, "stop_job", in.ID, sig)
	return text, EndJobOutput{Job: out.Job, Removed: out.removed}, err
}

// actionTool is the handler of restart_job or remove_job.
func (s *Server) actionTool(name string) func(context.Context, *sdk.CallToolRequest, JobInput) (string, JobOutput, error) {
	return func(ctx context.Context, _ *sdk.CallToolRequest, in JobInput) (string, JobOutput, error) {
		return s.act(ctx, name, in.ID, "")
	}
}

// act does tool name (stop_job, kill_job, restart_job or remove_job) to
// the job ref names; sig, when not "", is the signal a stop sends.
func (s *Server) act(ctx context.Context, name string, ref JobRef, sig string) (string, JobOutput, error) {
	info, err := s.resolve(ctx, ref)
	if err != nil {
		return "", JobOutput{}, err
	}
	c, id := s.opts.Client, info.ID
	var verb string
	var removed bool // it ended and was removed before the answer
	switch name {
	case "stop_job", "kill_job":
		var answer control.EndAnswer
		if sig != "" {
			answer, err = c.StopJobWith(ctx, info.ID, sig, true)
		} else {
			answer, err = c.EndJob(ctx, info.ID, strings.TrimSuffix(name, "_job"), true)
		}
		info, removed = answer.Info, answer.Removed
		verb = map[string]string{"stop_job": "stopped", "kill_job": "killed"}[name]
	case "restart_job":
		info, err = c.RestartJob(ctx, info.ID, true)
		verb = "restarted"
	case "remove_job":
		info, err = c.RemoveJob(ctx, info.ID)
		verb = "removed"
	}
	if err != nil && (name == "stop_job" || name == "kill_job") {
		// Ending a job that has ended is done already, not a mistake.
		if now, jerr := c.Job(ctx, id); jerr == nil && now.State.Done() {
			sum := summarize(now, time.Now())
			why := "it had already ended"
			if now.State == jobs.StateCreated {
				why = "it was never started" // autostart: false; restart_job starts it
			}
			return "job " + sum.line() + "\n(" + why + ": nothing to " + strings.TrimSuffix(name, "_job") + ")", JobOutput{Job: sum}, nil
		}
	}
	if err != nil {
		return "", JobOutput{}, s.apiError(err)
	}
	sum := summarize(info, time.Now())
	if removed {
		return verb + " job " + sum.line() + "\n(it ended and was removed since, by the instance's cap on finished jobs or by another client: shown as it was last)", JobOutput{Job: sum, removed: true}, nil
	}
	return verb + " job " + sum.line(), JobOutput{Job: sum}, nil
}

// describeStart names a job being started: its name, else its command.
func describeStart(req control.StartRequest) string {
	if req.Name != "" {
		return fmt.Sprintf("named %q", req.Name)
	}
	if req.Command != "" {
		return fmt.Sprintf("command %q", req.Command)
	}
	return fmt.Sprintf("argv %q", req.Argv)
}
