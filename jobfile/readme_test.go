package jobfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
	"jobtop/probe"
)

// TestReadmeExample keeps the job file documented in README.md valid and
// meaning what its comments say.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	_, section, found := strings.Cut(string(readme), "## Job files")
	require.True(t, found, "README.md has no Job files section")
	_, block, found := strings.Cut(section, "```yaml\n")
	require.True(t, found, "the Job files section has no yaml example")
	example, _, found := strings.Cut(block, "```")
	require.True(t, found)

	dir := inDir(t, map[string]string{"services/web/": "", "web.env": "MODE=dev\n"})
	plan, err := Parse("jobtop.yaml", []byte(example))
	require.NoError(t, err)
	require.Equal(t, []string{"db", "web", "seed"}, plan.Order)
	require.Equal(t, LogOptions{Dir: filepath.Join(dir, ".jobtop/logs"), MaxSize: 64 << 20, MemoryLines: 5000, KeepSessions: 10, MaxTotal: 1 << 30}, plan.Log)
	web, _ := plan.Job("web")
	require.Equal(t, filepath.Join(dir, "services/web"), web.Spec.Dir)
	require.Equal(t, "8080", web.Spec.Env["PORT"])
	require.Equal(t, "dev", web.Spec.Env["MODE"])
	require.Equal(t, jobs.RestartPolicy{Mode: jobs.RestartAlways, Backoff: 500 * time.Millisecond, MaxBackoff: 30 * time.Second, Max: 10}, web.Spec.Restart)
	require.Equal(t, jobs.ProbeCheck{Probe: &probe.HTTP{URL: "http://127.0.0.1:8080/healthz"}, Timeout: 2 * time.Second}, web.Spec.Ready.Probe)
	require.Equal(t, map[string]jobs.Condition{"db": jobs.CondHealthy}, web.Spec.DependsOn)
	db, _ := plan.Job("db")
	require.Equal(t, "exec: pg_isready -q, every 5s", db.Spec.Health.String())
	seed, _ := plan.Job("seed")
	require.False(t, seed.Autostart)
}
