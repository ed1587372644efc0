package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkStart is what a CLI command pays before it does anything:
// `jobtop --version` (the process start, the package inits, the command
// tree, the exit) against an empty Go program built in the same run by
// the same toolchain, run alternately (medians of b.N rounds):
//
//	go test ./e2e/ -run '^$' -bench Start -benchtime 200x
//
// x-empty is jobtop's median over the empty program's; ms-jobtop and
// ms-empty are the medians. A CLI command (jobtop ls) is this plus its
// request.
func BenchmarkStart(b *testing.B) {
	bin := binary(b)
	empty := emptyGoProgram(b)
	var base, jobtop []time.Duration
	for i := 0; i < b.N; i++ {
		base = append(base, timeRun(b, exec.Command(empty)))
		jobtop = append(jobtop, timeRun(b, exec.Command(bin, "--version")))
	}
	mb, mj := median(base), median(jobtop)
	b.ReportMetric(float64(mj)/float64(mb), "x-empty")
	b.ReportMetric(float64(mj.Microseconds())/1000, "ms-jobtop")
	b.ReportMetric(float64(mb.Microseconds())/1000, "ms-empty")
}

// emptyGoProgram builds `func main() {}` with the toolchain the tests
// run with, in a module of its own.
func emptyGoProgram(b *testing.B) string {
	dir := b.TempDir()
	require.NoError(b, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module empty\n\ngo 1.25\n"), 0o600))
	require.NoError(b, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o600))
	build := exec.Command("go", "build", "-o", "empty", ".")
	build.Dir = dir
	out, err := build.CombinedOutput()
	require.NoError(b, err, "%s", out)
	return filepath.Join(dir, "empty")
}

// timeRun runs cmd to its end and returns how long it took.
func timeRun(b *testing.B, cmd *exec.Cmd) time.Duration {
	start := time.Now()
	require.NoError(b, cmd.Run())
	return time.Since(start)
}
