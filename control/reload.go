package control

import (
	"context"
	"net/http"
	"slices"
)

// Reloader re-reads an instance's job file and applies it to the running
// jobs. An instance started with a job file gives its server one
// (Server.SetReloader); the server answers POST /v1/reload with it.
type Reloader interface {
	// JobFile is the job file's absolute path.
	JobFile() string
	// Reload applies the file as it is now. A file that cannot be read
	// or is not valid changes nothing and is a *ReloadError.
	Reload() (ReloadResponse, error)
}

// MergedReloader is a Reloader whose job file is merged from several
// files (process-compose's override file, several -f, extends:).
type MergedReloader interface {
	Reloader
	// JobFiles are the files merged, absolute, in order; nil for one.
	JobFiles() []string
}

// FileJobNamer is a Reloader that says the names of its job file's jobs,
// at once (a reload under way does not hold it up): a name no job has
// that is one of them is a job removed since (jobtop clean), which a
// reload brings back, and the message for it says so.
type FileJobNamer interface {
	FileJobNames() []string
}

// describeJobFile fills in an instance's job file from its reloader.
func describeJobFile(inst *Instance, rl Reloader) {
	inst.JobFile = rl.JobFile()
	if m, ok := rl.(MergedReloader); ok {
		inst.JobFiles = m.JobFiles()
	}
	inst.FileJobs = fileJobs(rl)
}

// fileJobs are the names of the reloader's job file's jobs; nil when it
// cannot say, or there is no job file (rl nil).
func fileJobs(rl Reloader) []string {
	if n, ok := rl.(FileJobNamer); ok {
		return n.FileJobNames()
	}
	return nil
}

// ReloadResponse answers POST /v1/reload: what the reload did.
type ReloadResponse struct {
	// Summary says it in a line: "reloaded jobtop.yaml: 1 added (api)".
	Summary string `json:"summary"`
	// JobFile is the job file's absolute path.
	JobFile string `json:"job_file"`
	// The file's jobs by what happened to them, in file order.
	Added     []string `json:"added"`
	Changed   []string `json:"changed"`
	Removed   []string `json:"removed"`
	Unchanged []string `json:"unchanged"`
	// Enabled and Disabled are the jobs whose autostart (process-compose:
	// disabled) the reload turned on (started, unless running) or off
	// (stopped); such a job is in Changed too when its spec changed.
	Enabled  []string `json:"enabled"`
	Disabled []string `json:"disabled"`
	// Rewired are the jobs whose depends_on alone changed: they have the
	// new dependencies for their next start, and were not restarted
	// (they are in Unchanged too).
	Rewired []string `json:"rewired"`
	// MaxRunning is the limit on jobs running at once the reload set,
	// when the file's max_parallel changed (0: no limit); absent when it
	// did not, and the limit was left as it was.
	MaxRunning *int `json:"max_running,omitempty"`
	// OptionsChanged says the log settings changed; they apply when the
	// instance starts again.
	OptionsChanged bool `json:"options_changed"`
	// Warnings are the file's parts jobtop does not carry out (fields of
	// another tool's format), and env_cmds that failed: "FILE:LINE:COL:
	// what".
	Warnings []string `json:"warnings,omitempty"`
}

// ReloadError is a job file that could not be reloaded: nothing was
// changed. The server answers it 422 with the problems listed.
type ReloadError struct {
	// Msg says it in a line.
	Msg string
	// Problems are the file's problems, each "FILE:LINE:COL: what is
	// wrong"; empty when the file could not be read.
	Problems []string
}

func (e *ReloadError) Error() string { return e.Msg }

// errNoJobFile answers a reload on an instance that has no job file.
var errNoJobFile = &RequestError{
	Status: http.StatusConflict,
	Msg:    "this instance has no job file: start it with -f FILE, or in a directory holding jobtop.yaml, jobtop.yml, a process-compose file or a Procfile",
}

// SetReloader gives the server the instance's job file, for POST
// /v1/reload and GET /v1/instance. It is safe to call while serving.
func (s *Server) SetReloader(r Reloader) {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	s.reloader = r
}

func (s *Server) currentReloader() Reloader {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	return s.reloader
}

func (s *Server) handleReload(w http.ResponseWriter, r *http.Request) {
	rl := s.currentReloader()
	if rl == nil {
		writeError(w, errNoJobFile)
		return
	}
	resp, err := rl.Reload()
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// ReloadFile asks the instance to re-read its job file. A file with
// problems is an *APIError whose Problems list them.
func (c *Client) ReloadFile(ctx context.Context) (ReloadResponse, error) {
	var resp ReloadResponse
	err := c.call(ctx, http.MethodPost, "/v1/reload", nil, nil, &resp)
	return resp, err
}

// JobFiles are the files the instance's job file is read from now, as
// it says in GET /v1/instance (ui.FileLister, asked after a reload); nil
// when it cannot be asked.
func (c *Client) JobFiles() []string {
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	inst, err := c.Instance(ctx)
	if err != nil {
		return nil
	}
	if len(inst.JobFiles) == 0 && inst.JobFile != "" {
		return []string{inst.JobFile}
	}
	return inst.JobFiles
}

// Reload re-reads the attached instance's job file, for the TUI: it
// returns the summary line, or the error (one line; see ReloadFile). The
// jobs the reload added are in the mirror when it returns, as a job
// started through the client is, so the TUI can tell them from jobs
// started elsewhere whose events are still on their way.
func (c *Client) Reload() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	resp, err := c.ReloadFile(ctx)
	if err != nil {
		return "", err
	}
	if len(resp.Added) > 0 {
		if list, err := c.Jobs(ctx); err == nil {
			for _, j := range list {
				if slices.Contains(resp.Added, j.Name) {
					c.remember(j)
				}
			}
		}
	}
	return resp.Summary, nil
}
