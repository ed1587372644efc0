package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"jobtop/control"
	"jobtop/jobs"
)

// autoStartTimeout bounds how long run waits for a server it started.
const autoStartTimeout = 15 * time.Second

type runOptions struct {
	name    string
	cwd     string
	env     []string
	timeout string
	json    bool
	tty     bool
	stdin   string
	after   []string
	stopSig string
}

func newRunCmd() *cobra.Command {
	var o runOptions
	cmd := &cobra.Command{
		Use:   "run [flags] -- COMMAND...",
		Short: "Start a job in the jobtop instance and print its ID",
		Long: `Start a job in the jobtop instance on the socket. One word after -- is
a shell command line, run by /bin/sh -c (jobtop run -- 'make && make test');
several words are a program and its arguments, run directly, each reaching
it as given (jobtop run -- python3 -c 'print("a b")'), but for leading
NAME=value words, which set variables for it as a shell's do
(jobtop run -- CUDA_VISIBLE_DEVICES=1 python3 train.py). Words before --
are refused when the command comes after it. It runs in the
current directory unless --cwd says otherwise, with the environment run
was called in (its PATH, an activated virtualenv) plus --env; on another
machine (--host), in the instance's environment there.

Prints the new job's ID alone on stdout, so id=$(jobtop run -- make)
works; with --json, the job as JSON. If no instance is listening, run
starts a background "jobtop serve --no-file" on the socket first (and
says so on stderr): a job file in the current directory is not run.

With --after ID|NAME (as pueue add --after), the job waits queued until
each job named has succeeded, and fails without running, saying which and
how, when one fails or is removed first. A name is the newest job with it
when run is called: the job waits for that job, by its ID, whatever jobs
come later under the same name. A job that does not exist is refused
(exit 1).`,
		Example: `  id=$(jobtop run --name web -- npm run dev)
  jobtop run --after build,lint -- make test
  jobtop run --timeout 10m --env CI=1 -- go test ./...
  id=$(jobtop run --tty -- npm init); jobtop screen $id; jobtop send --enter $id 'my-app'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(strings.Join(args, "")) == "" {
				return errors.New("nothing to run: give the command after --, e.g. jobtop run -- make test")
			}
			if cmd.Flags().Changed("after") {
				beforeDash := args // no --: the command's words could be IDs too
				if dash := cmd.ArgsLenAtDash(); dash >= 0 {
					beforeDash = args[:dash]
				}
				if err := checkAfterFlag(o.after, beforeDash); err != nil {
					return err
				}
			}
			if dash := cmd.ArgsLenAtDash(); dash > 0 && dash < len(args) {
				return strayWordsError(cmd, args[:dash], os.Args[1:])
			}
			// Several words are a program's argv, which leading NAME=value
			// words only give variables (one word is a shell line).
			if vars, rest := jobs.ArgvAssignments(args); len(args) > 1 && len(rest) == 0 {
				// As a shell reads them back: assignments after a first
				// word have only their values quoted.
				set := strings.TrimPrefix(jobs.ShellJoin(append([]string{"env"}, vars...)), "env ")
				return fmt.Errorf("%s only sets variables: a command is needed after the variables, e.g. jobtop run -- %s make test", set, set)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.name, "name", "", "name the job `N`: ASCII letters, digits, \".\", \"_\", \"-\", and \"/\" between a namespace and a name (default: its program's name, made unique with -2, -3)")
	f.StringVar(&o.cwd, "cwd", "", "run in `DIR` (default: the current directory)")
	f.StringArrayVar(&o.env, "env", nil, "add `K=V` to the job's environment (repeatable)")
	f.StringVar(&o.timeout, "timeout", "", "stop the job after `DUR` (e.g. 30s, 10m); it ends timed_out")
	f.BoolVar(&o.json, "json", false, "print the new job as JSON")
	f.BoolVar(&o.tty, "tty", false, "run on a terminal (200x50): colours, prompts and full-screen programs; answer with jobtop send, read with jobtop screen")
	f.StringVar(&o.stopSig, "stop-signal", "", "stop the job with `SIG` (INT, SIGINT or 2; default TERM): INT runs a Python script's KeyboardInterrupt handlers")
	f.StringVar(&o.stdin, "stdin", "null", "what a job on pipes reads: null (/dev/null) or pipe (written by jobtop send)")
	f.StringArrayVar(&o.after, "after", nil, "start once the job `ID|NAME` has succeeded (repeatable, or a comma list: 3,build); it fails if one fails or is removed first")
	cmd.RegisterFlagCompletionFunc("after", func(c *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) { //nolint:errcheck // the flag is defined above
		// A comma list (3,build): complete its last job, the rest kept.
		done := toComplete[:strings.LastIndexByte(toComplete, ',')+1]
		got, directive := completeJobs(c, nil, toComplete[len(done):])
		for i := range got {
			got[i] = done + got[i]
		}
		return got, directive
	})
	return cmd
}

// strayWordsError refuses words before "--" when the command comes after
// it: they are no flag's and not the command (bash's --name
// exp-lr{1..4} gives --name exp-lr1 exp-lr2 ...; they ran as the
// program). raw, jobtop's arguments, say which flag's value came just
// before them, when one did.
func strayWordsError(cmd *cobra.Command, stray, raw []string) error {
	if dash := slices.Index(raw, "--"); dash >= 0 {
		raw = raw[:dash]
	}
	flag := ""
	if i := slices.Index(raw, stray[0]); i >= 2 && strings.HasPrefix(raw[i-2], "-") && !strings.Contains(raw[i-2], "=") {
		name := strings.TrimLeft(raw[i-2], "-")
		f := cmd.Flags().Lookup(name)
		if f == nil && len(name) == 1 {
			f = cmd.Flags().ShorthandLookup(name)
		}
		if f != nil && f.Value.Type() != "bool" {
			flag = fmt.Sprintf("each flag takes one value: %s %s", raw[i-2], raw[i-1])
		}
	} else if i >= 1 && strings.HasPrefix(raw[i-1], "--") && strings.Contains(raw[i-1], "=") {
		flag = "each flag takes one value: " + raw[i-1]
	}
	if flag != "" {
		flag = " (" + flag + ")"
	}
	return usageErrorf("%s: words before -- are not run's%s; the command goes after --, all of it: jobtop run [flags] -- COMMAND...", strings.Join(stray, " "), flag)
}

// checkAfterFlag refuses an --after given no job (--after "", from a
// script whose $id came out empty: the job would run at once), and IDs
// after it before "--", as pueue's --after 3 4 takes them: here the
// second would be the program.
func checkAfterFlag(after, beforeDash []string) error {
	if slices.Contains(after, "") {
		return usageErrorf("--after: give a job's ID or name (it was empty)")
	}
	if len(beforeDash) > 0 && strings.Trim(beforeDash[0], "0123456789") == "" {
		return usageErrorf("%s: --after takes one job at a time (--after %s,%s or --after %s --after %s)", beforeDash[0], after[len(after)-1], beforeDash[0], after[len(after)-1], beforeDash[0])
	}
	return nil
}

func run(cmd *cobra.Command, o runOptions, args []string) error {
	c := newStartingClient(cmd)
	req, err := o.request(args, c.Host())
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	info, err := c.StartJob(ctx, req)
	var apiErr *control.APIError
	if errors.As(err, &apiErr) && apiErr.Status == http.StatusServiceUnavailable && c.Host() == nil && len(req.After) == 0 {
		// An instance that is shutting down: as plain jobtop does, wait
		// for it to exit, then start the job on a new one.
		if inst, ierr := c.Instance(ctx); ierr == nil && inst.Ending {
			if !awaitEnd(cmd, &instanceEndingError{inst: inst}) {
				return fmt.Errorf("the jobtop instance on %s (pid %d) is shutting down and did not exit within %v: nothing was started", c.Socket(), inst.PID, endingWait)
			}
			info, err = c.StartJob(ctx, req)
		}
	}
	var notRunning *control.NotRunningError
	if errors.As(err, &notRunning) && len(req.After) > 0 {
		// A new instance would have none of the jobs named.
		return fmt.Errorf("no jobtop is listening on %s, so there is no job %s to run after (start one with `jobtop serve`)", c.Socket(), req.After[0])
	}
	if errors.As(err, &notRunning) && !errors.Is(err, syscall.EACCES) && c.Host() == nil {
		ours, serr := autoStartServer(ctx, cmd, c)
		if serr != nil {
			return serr
		}
		info, err = c.StartJob(ctx, req)
		tellPreviousEnd(ctx, cmd, c, ours)
	}
	if msg := fmt.Sprint(err); control.IsNotFound(err) && strings.HasSuffix(msg, control.ListJobsHint) {
		return errors.New(strings.TrimSuffix(msg, control.ListJobsHint) + "`jobtop ls` lists them")
	}
	if h := c.Host(); h != nil && errors.As(err, &apiErr) && strings.HasPrefix(apiErr.Message, `cwd "`) {
		// The far instance checked the directory: say where.
		return fmt.Errorf("%s on host %s", apiErr.Message, h.Name())
	}
	if err != nil {
		return err
	}
	if o.json {
		err = printJSON(cmd.OutOrStdout(), info)
	} else {
		fmt.Fprintln(cmd.OutOrStdout(), info.ID)
	}
	if req.Name != "" {
		sameName(cmd, c, info)
	}
	if err == nil && info.State == jobs.StateError {
		// Its program not found, the job it runs after failed: the ID
		// still, and an exit that says it did not run.
		return jobExit(info)
	}
	return err
}

// request is the job to start. On a host (not nil), the job runs in the
// directory --cwd names there, which must be absolute, or else in the
// instance's.
func (o runOptions) request(args []string, host *control.Host) (control.StartRequest, error) {
	req := control.StartRequest{
		Name:    o.name,
		Command: args[0],
		Cwd:     o.cwd,
		TTY:     o.tty,
	}
	if len(args) > 1 {
		// A program and its arguments, run directly: each reaches it as
		// given, as with jobtop -- cmd args, nohup and timeout.
		req.Command, req.Argv = "", args
	}
	if o.timeout != "" {
		// Checked here too: the instance's refusal would exit 1, not as
		// a command line that cannot run.
		d, err := jobs.ParseDuration(o.timeout)
		switch {
		case errors.Is(err, jobs.ErrDurationTooLarge):
			return req, usageErrorf("--timeout %q is too large: at most %s", o.timeout, jobs.MaxDurationText)
		case err != nil:
			return req, usageErrorf("--timeout %q is not a duration: write a number of seconds, or a number with a unit, like 30s, 5m or 1h30m", o.timeout)
		case d < 0:
			return req, usageErrorf("--timeout %s is negative", o.timeout)
		}
		req.Timeout = control.Duration(d.String())
	}
	if o.stopSig != "" {
		sig, err := jobs.ParseStopSignal(o.stopSig)
		if err != nil {
			return req, usageErrorf("--stop-signal: %w", err)
		}
		req.StopSignal = sig.String()
	}
	stdin, err := jobs.ParseStdin(o.stdin)
	if err != nil {
		return req, usageErrorf("--stdin: %w", err)
	}
	if o.tty && stdin == jobs.StdinPipe {
		return req, usageErrorf("--stdin pipe is for jobs on pipes: a --tty job reads its terminal")
	}
	req.Stdin = string(stdin)
	if o.name != "" {
		if err := jobs.CheckName(o.name); err != nil {
			return req, &ExitError{Code: usageExit, Err: err}
		}
	}
	switch {
	case host != nil && req.Cwd != "" && !filepath.IsAbs(req.Cwd):
		return req, usageErrorf("--cwd %q: with --host, give an absolute path on %s (a relative one means nothing there)", req.Cwd, host.Name())
	case host != nil:
	case req.Cwd == "":
		wd, err := os.Getwd()
		if err != nil {
			return req, fmt.Errorf("cannot tell the current directory: %w (give --cwd)", err)
		}
		req.Cwd = wd
	default:
		if abs, err := filepath.Abs(req.Cwd); err == nil {
			req.Cwd = abs
		}
	}
	if host == nil {
		// The job starts from this shell's environment (its PATH, its
		// virtualenv), as it starts in this directory.
		var left []string
		if req.Environ, left = control.CallerEnviron(); len(left) > 0 {
			fmt.Fprintln(os.Stderr, "jobtop:", environLeftOut(left))
		}
	}
	var refs []string // each --after, a comma list or one job
	for _, a := range o.after {
		refs = append(refs, strings.Split(a, ",")...)
	}
	for _, ref := range refs {
		ref = strings.TrimSpace(ref)
		if ref == "" {
			return req, usageErrorf("--after: give a job's ID or name (a comma list holds no empty one)")
		}
		if msg := jobs.BadID(ref); strings.HasPrefix(msg, "no job") {
			return req, errors.New("after: " + msg)
		} else if msg != "" {
			return req, usageErrorf("--after: %s", msg)
		}
		req.After = append(req.After, control.JobRef(ref))
	}
	for _, kv := range o.env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return req, usageErrorf("--env %q: write it as NAME=VALUE", kv)
		}
		if req.Env == nil {
			req.Env = make(map[string]string)
		}
		req.Env[k] = v
	}
	return req, nil
}

// startBackgroundServe starts jobtop with args (a serve) in a session of
// its own, its output appended to the serve log in the state directory;
// it returns the process, the log's path, where this serve's output
// starts in it, and a channel that gets its exit.
func startBackgroundServe(args ...string) (server *exec.Cmd, logPath string, logStart int64, exited <-chan error, err error) {
	return startBackgroundServeWith(nil, args...)
}

// startBackgroundServeWith is startBackgroundServe passing it files
// (descriptors 3 on).
func startBackgroundServeWith(files []*os.File, args ...string) (server *exec.Cmd, logPath string, logStart int64, exited <-chan error, err error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, "", 0, nil, err
	}
	stateDir, err := jobs.DefaultStateDir()
	if err != nil {
		return nil, "", 0, nil, err
	}
	logPath = filepath.Join(stateDir, "serve.log")
	logFile, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, "", 0, nil, err
	}
	defer logFile.Close()
	logStart, _ = logFile.Seek(0, io.SeekEnd)
	server = exec.Command(exe, args...)
	server.Stdout, server.Stderr = logFile, logFile
	server.ExtraFiles = files
	server.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // not this terminal's: its hangup is not serve's
	if err := server.Start(); err != nil {
		return nil, "", 0, nil, err
	}
	done := make(chan error, 1)
	go func() { done <- server.Wait() }()
	return server, logPath, logStart, done, nil
}

// autoStartServer starts a detached "jobtop serve" on the client's socket
// and waits until it answers. If another one won the race to the socket,
// that one is used, and named. It returns the PID of the serve it
// started when that one answers, 0 when another does.
func autoStartServer(ctx context.Context, cmd *cobra.Command, c *control.Client) (ours int, _ error) {
	if err := control.SocketDirMissing(c.Socket()); err != nil {
		return 0, err // said here, not in a serve log nobody reads
	}
	// A job file in the caller's directory is not run: an agent asked
	// for one job, not for a dev environment.
	args := []string{"serve", "--socket", c.Socket(), "--no-file", "--idle-exit", autoIdleExit.String()}
	// The limit on jobs running at once the last instance there had
	// (`jobtop parallel 2` before it went idle) still holds.
	limit := keptLimit(c.Socket())
	limitNote := ""
	if limit > 0 {
		args = append(args, "--max-running", strconv.Itoa(limit))
		limitNote = fmt.Sprintf("; parallel limit %d, from the last instance on the socket (jobtop parallel 0 lifts it)", limit)
	}
	server, logPath, _, exited, err := startBackgroundServe(args...)
	if err != nil {
		return 0, fmt.Errorf("cannot start a jobtop instance: %w", err)
	}
	// Said once it answers: which one does (several clients started at
	// once each start one, and one of them wins the socket).
	started := func(inst control.Instance) int {
		if inst.PID != 0 && inst.PID != server.Process.Pid {
			fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: no instance was listening on %s; another client started one meanwhile (jobtop serve, pid %d)\n", c.Socket(), inst.PID)
			return 0
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "jobtop: no instance was listening on %s; started one in the background (jobtop serve, pid %d, log %s; it exits after %v with no job and no client)%s\n",
			c.Socket(), server.Process.Pid, logPath, autoIdleExit, limitNote)
		return server.Process.Pid
	}

	deadline := time.Now().Add(autoStartTimeout)
	for {
		probe, cancel := context.WithTimeout(ctx, time.Second)
		inst, err := c.Instance(probe)
		cancel()
		if err == nil {
			return started(inst), nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("the background jobtop serve (pid %d) did not answer on %s within %v; see %s", server.Process.Pid, c.Socket(), autoStartTimeout, logPath)
		}
		select {
		case werr := <-exited:
			// It may have lost the socket to another instance started
			// at the same time: then that one answers.
			if inst, err := c.Instance(ctx); err == nil {
				return started(inst), nil
			}
			return 0, fmt.Errorf("the background jobtop serve (pid %d) exited (%v); see %s", server.Process.Pid, werr, logPath)
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// tellPreviousEnd says once, on stderr, that the instance before the
// serve this command started (ours, its PID; 0 for none) ended without
// shutting down, if it did: that serve's own stderr is its log, which
// nobody reads. Asked after a request was answered: an instance answers
// who it is while it still starts, before it knows.
func tellPreviousEnd(ctx context.Context, cmd *cobra.Command, c *control.Client, ours int) {
	if ours == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if inst, err := c.LoadedInstance(ctx); err == nil && inst.PID == ours && inst.PreviousEnd != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), previousEndNote(c.Socket(), inst.PreviousEnd))
	}
}

// environLeftOut says which variables CallerEnviron left out.
func environLeftOut(names []string) string {
	return fmt.Sprintf("this environment is larger than a request to the instance carries (512 KiB): the job gets it without %s, the largest", strings.Join(names, ", "))
}

// sameName says, on stderr, which other live jobs have the name the new
// job was given: its name now names the new one (the newest), and a
// second dev server started by the same command line was easy to miss
// (jobtop kill web then stopped only the new one).
func sameName(cmd *cobra.Command, c *control.Client, started jobs.Info) {
	list, err := c.Jobs(cmd.Context())
	if err != nil {
		return
	}
	if warning := sameNameWarning(list, started); warning != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "jobtop:", warning)
	}
}

// sameNameWarning says which live jobs of list other than newest have
// newest's name ("" when none does): the name names newest now.
func sameNameWarning(list []jobs.Info, newest jobs.Info) string {
	var others []string
	for _, j := range list {
		if j.ID != newest.ID && j.Name == newest.Name && (j.State.Active() || j.State == jobs.StateQueued) {
			others = append(others, strconv.Itoa(int(j.ID)))
		}
	}
	if len(others) == 0 {
		return ""
	}
	which, has, them := "job "+others[0], "has", "it"
	if len(others) > 1 {
		which, has, them = "jobs "+strings.Join(others, ", "), "have", "them"
	}
	return fmt.Sprintf("%s, also named %s, %s not ended: %s names job %d now (the newest); jobtop kill %s ends %s",
		which, newest.Name, has, newest.Name, newest.ID, strings.Join(others, " "), them)
}

// sameNamesWarning is sameNameWarning for the jobs a command line
// started (jobtop 'sleep 30' 'sleep 31' --name a,a), once for each name,
// of the newest of them under it; "" when no name is another live job's.
func sameNamesWarning(list, started []jobs.Info) string {
	newest := map[string]jobs.Info{}
	var names, warnings []string
	for _, j := range started {
		prev, seen := newest[j.Name]
		if !seen {
			names = append(names, j.Name)
		}
		if !seen || j.ID > prev.ID {
			newest[j.Name] = j
		}
	}
	for _, name := range names {
		if w := sameNameWarning(list, newest[name]); w != "" {
			warnings = append(warnings, w)
		}
	}
	return strings.Join(warnings, "; ")
}
