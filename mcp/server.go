package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"jobtop/control"
	"jobtop/jobs"
)

// Options configure a Server.
type Options struct {
	// Client talks to the jobtop instance.
	Client *control.Client
	// EnsureInstance starts an instance on the client's socket when none
	// answers (run_job calls it once, then tries again); nil: never.
	EnsureInstance func(context.Context) error
	// Dir is the directory relative cwd arguments start from, and the
	// default cwd of new jobs; empty: the process's working directory.
	Dir string
	// Environ is the environment new jobs start from, the MCP client's
	// (control.CallerEnviron); nil: the instance's.
	Environ []string
	// Version is jobtop's version, told to clients.
	Version string
}

// Server holds what the tools share.
type Server struct {
	opts    Options
	startMu sync.Mutex // one auto-start at a time

	schemas map[string]*jsonschema.Schema // each tool's input schema, by name: set up by New, then read only

	instMu sync.Mutex
	inst   *control.Instance // the instance the tools talked to last; nil: none yet
}

// New builds the MCP server with every jobtop tool.
func New(o Options) *sdk.Server {
	version := o.Version
	if version == "" {
		version = "dev"
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "jobtop", Title: "jobtop", Version: version},
		&sdk.ServerOptions{Instructions: instructions, Capabilities: &sdk.ServerCapabilities{}})
	s := &Server{opts: o}
	s.addTools(srv)
	srv.AddReceivingMiddleware(explainNull, refuseDuplicateArguments, s.checkArguments, s.watchInstance)
	return srv
}

// nullArg finds the schema validator's words for an argument given as
// null, which show Go's internals ("<invalid reflect.Value>").
var nullArg = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`/properties/([^:]+): type: <invalid reflect\.Value> has type "null", want (.*)`)
})

// explainNull rewords a tool call's refusal of a null argument into what
// a model can act on: which argument, and what to give instead.
func explainNull(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*sdk.CallToolResult); ok && r != nil && r.IsError {
			for _, c := range r.Content {
				if t, ok := c.(*sdk.TextContent); ok {
					t.Text = nullArg().ReplaceAllString(t.Text, "/properties/$1: $1 is null; give $2, or leave $1 out if it is optional")
				}
			}
		}
		return res, err
	}
}

// refuseDuplicateArguments refuses a tool call that gives an argument
// twice ({"command": "rm -rf build", "command": "make"}): decoding would
// keep the last without a word, as the API refuses to.
func refuseDuplicateArguments(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if call, ok := req.(*sdk.CallToolRequest); ok && call.Params != nil {
			if err := control.CheckDuplicateFields(call.Params.Arguments); err != nil {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "arguments: " + err.Error()}}}, nil
			}
		}
		return next(ctx, method, req)
	}
}

// instructions tell the model when to use jobtop and how.
const instructions = `jobtop runs shell commands as background jobs that the person you work with sees live in their jobtop window, where they can scroll, stop and restart them too.

Use it instead of running a command in your own shell when the command may take longer than a few seconds, never ends on its own (dev servers, watchers, tail -f), or prints a lot: builds, test suites, servers, migrations, long scripts.

The loop:
1. run_job starts it; give wait_for to wait in the same call: a regex for the line that says it is up (e.g. "listening on"), "ready", or "exit" to wait for it to finish.
2. read_output reads its output; pass the next_cursor of your previous read as cursor to get only new lines. Each call returns at most 200 lines / 16 KiB; "more" says there is more to read.
3. wait_job waits for a line, readiness or the exit; job_status and list_jobs tell you how jobs are doing; search_output finds lines (in_log: true also searches output memory no longer holds).
4. For an interactive program (it asks questions, is a REPL or a full-screen TUI), run_job with tty: true; read_screen shows what its terminal shows (wait_for waits for a prompt), send_input types into it (text, named keys like enter or ctrl+c).
5. stop_job (graceful) or kill_job (now) ends a job and everything it started; restart_job runs it again after a change; remove_job tidies away a finished job.

Name jobs (name: "web") and refer to them by ID or name. Jobs keep running after this conversation ends: stop the ones you started when you no longer need them. list_jobs also shows the person's own jobs: leave those alone unless asked.`

// startJob starts a job, starting an instance first when none answers
// and the server may.
func (s *Server) startJob(ctx context.Context, req control.StartRequest) (jobs.Info, error) {
	info, err := s.opts.Client.StartJob(ctx, req)
	var apiErr *control.APIError
	if errors.As(err, &apiErr) && apiErr.Status == http.StatusServiceUnavailable && s.opts.EnsureInstance != nil && len(req.After) == 0 {
		// An instance that is shutting down (its TUI quitting): as
		// jobtop run does, wait for it to exit, then start a new one.
		if s.awaitEnd(ctx) {
			info, err = s.opts.Client.StartJob(ctx, req)
		}
	}
	var notRunning *control.NotRunningError
	if !errors.As(err, &notRunning) || errors.Is(err, syscall.EACCES) || s.opts.EnsureInstance == nil {
		return info, s.apiError(err)
	}
	s.startMu.Lock()
	_, probe := s.opts.Client.Instance(ctx)
	if probe != nil {
		probe = s.opts.EnsureInstance(ctx)
	}
	s.startMu.Unlock()
	if probe != nil {
		return jobs.Info{}, probe
	}
	info, err = s.opts.Client.StartJob(ctx, req)
	return info, s.apiError(err)
}

// endingWait bounds the wait for an instance that is shutting down to
// exit, as jobtop run's.
const endingWait = time.Minute

// awaitEnd waits until the instance on the socket, which says it is
// ending, has let the socket go; false when it is not ending, or has
// not gone within endingWait.
func (s *Server) awaitEnd(ctx context.Context) bool {
	inst, err := s.opts.Client.Instance(ctx)
	return err == nil && inst.Ending && s.opts.Client.AwaitEnd(ctx, inst, endingWait)
}

// apiError rewords the errors of the API for a model; an instance that
// went away is said to have (lostError).
func (s *Server) apiError(err error) error {
	if err == nil {
		return nil
	}
	if gone := s.lostError(context.Background(), err); gone != nil {
		return gone
	}
	var notRunning *control.NotRunningError
	if errors.As(err, &notRunning) && !errors.Is(err, syscall.EACCES) {
		return fmt.Errorf("no jobtop instance is running on %s, so there are no jobs yet; run_job starts one", s.opts.Client.Socket())
	}
	if msg := err.Error(); control.IsNotFound(err) && strings.HasSuffix(msg, control.ListJobsHint) {
		return errors.New(strings.TrimSuffix(msg, control.ListJobsHint) + "list_jobs lists them")
	}
	return err
}

// resolve finds the job ref names; an unknown one is an error that lists
// the jobs there are.
func (s *Server) resolve(ctx context.Context, ref JobRef) (jobs.Info, error) {
	if ref.ID == 0 && ref.Name == "" {
		return jobs.Info{}, errors.New("no job given: pass id, a job's ID (a number) or name; list_jobs lists them")
	}
	if ref.ID != 0 {
		info, err := s.opts.Client.Job(ctx, jobs.ID(ref.ID))
		if err == nil || !control.IsNotFound(err) {
			return info, s.apiError(err)
		}
	}
	list, err := s.opts.Client.Jobs(ctx)
	if err != nil {
		return jobs.Info{}, s.apiError(err)
	}
	if ref.Name != "" {
		for i := len(list) - 1; i >= 0; i-- {
			if list[i].Name == ref.Name {
				return list[i], nil
			}
		}
	}
	return jobs.Info{}, unknownJob(ref, list)
}

// maxListedJobs bounds the jobs an unknown-job error lists.
const maxListedJobs = 30

// unknownJob says the job does not exist, and which ones do.
func unknownJob(ref JobRef, list []jobs.Info) error {
	var b strings.Builder
	if ref.Name != "" {
		fmt.Fprintf(&b, "no job is named %q.", control.CutForMessage(ref.Name))
	} else {
		fmt.Fprintf(&b, "no job has ID %d.", ref.ID)
	}
	if len(list) == 0 {
		b.WriteString(" There are no jobs; run_job starts one.")
		return errors.New(b.String())
	}
	b.WriteString(" The jobs are (ID name state):")
	shown := list
	if len(shown) > maxListedJobs {
		shown = shown[len(shown)-maxListedJobs:]
	}
	for _, j := range shown {
		fmt.Fprintf(&b, "\n%d %s %s", j.ID, j.Name, j.State)
	}
	if n := len(list) - len(shown); n > 0 {
		fmt.Fprintf(&b, "\n(and %d older; list_jobs lists every one)", n)
	}
	b.WriteString("\nPass one of these IDs or names.")
	return errors.New(b.String())
}

// workDir turns a cwd argument into the absolute directory of a job. On
// another host, this machine's directories mean nothing: a cwd must be
// absolute there, and without one the job runs in the instance's.
func (s *Server) workDir(cwd string) (string, error) {
	if host := s.opts.Client.Host(); host != nil {
		if cwd != "" && !filepath.IsAbs(cwd) {
			return "", fmt.Errorf("cwd %q: the jobs run on host %s, so give an absolute path there (neither this machine's directories nor its ~ mean anything on it); without cwd a job runs in the instance's directory there", cwd, host.Name())
		}
		if cwd == "" {
			return "", nil
		}
		return filepath.Clean(cwd), nil
	}
	base := s.opts.Dir
	if base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("cannot tell jobtop mcp's working directory (%v): give cwd as an absolute path", err)
		}
		base = wd
	}
	if cwd == "" {
		return base, nil
	}
	if strings.HasPrefix(cwd, "~/") || cwd == "~" {
		if home, err := os.UserHomeDir(); err == nil {
			cwd = filepath.Join(home, strings.TrimPrefix(cwd, "~"))
		}
	}
	if !filepath.IsAbs(cwd) {
		cwd = filepath.Join(base, cwd)
	}
	return filepath.Clean(cwd), nil
}

// clientName is the MCP client's name from its initialize, fit for a job's
// Client field (no control characters, at most 64 bytes).
func clientName(req *sdk.CallToolRequest) string {
	if req == nil {
		return ""
	}
	info := req.ClientInfo()
	if info == nil {
		return ""
	}
	name := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.TrimSpace(info.Name))
	for len(name) > 64 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}
