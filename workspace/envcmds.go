package workspace

import (
	"context"
	"fmt"
	"maps"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"

	"jobtop/jobfile"
	"jobtop/jobs"
)

// envCommandTimeout bounds each env_cmds command, as process-compose
// does (it asks for commands that end within 2 seconds).
const envCommandTimeout = 2 * time.Second

// runEnvCommands runs a plan's env_cmds (process-compose) with /bin/sh in
// the file's directory, each for at most envCommandTimeout, through the
// manager (as jobs run: nothing they start outlives them), and returns
// the variables they set: each command's output, trimmed. A command that
// fails sets nothing, and says why in problems.
func runEnvCommands(m *jobs.Manager, plan *jobfile.Plan) (env map[string]string, problems []string) {
	if len(plan.EnvCommands) == 0 {
		return nil, nil
	}
	names := make([]string, 0, len(plan.EnvCommands))
	for name := range plan.EnvCommands {
		names = append(names, name)
	}
	sort.Strings(names)
	env = make(map[string]string, len(names))
	for _, name := range names {
		out, err := runEnvCommand(m, plan.Dir, plan.EnvCommands[name])
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: warning: env_cmds.%s: %v; %s is not set", plan.Path, name, err, name))
			continue
		}
		env[name] = out
	}
	return env, problems
}

func runEnvCommand(m *jobs.Manager, dir, command string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), envCommandTimeout)
	defer cancel()
	res, err := m.RunCommand(ctx, []string{"/bin/sh", "-c", command}, os.Environ(), dir)
	switch {
	case err != nil:
		return "", fmt.Errorf("%q: cannot start: %v", command, err)
	case res.Signal == jobs.Signal(syscall.SIGKILL) && ctx.Err() != nil:
		return "", fmt.Errorf("%q did not end within %v", command, envCommandTimeout)
	case res.Signal != 0:
		return "", fmt.Errorf("%q: killed by %v", command, res.Signal)
	case res.Code != 0:
		return "", fmt.Errorf("%q: exit status %d", command, res.Code)
	}
	return strings.TrimSpace(string(res.Stdout)), nil
}

// withEnv is spec with the variables under its own environment.
func withEnv(spec jobs.Spec, vars map[string]string) jobs.Spec {
	if len(vars) == 0 {
		return spec
	}
	env := maps.Clone(vars)
	maps.Copy(env, spec.Env)
	spec.Env = env
	return spec
}
