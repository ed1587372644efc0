package cmd

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVersionSaysWhatWasBuilt(t *testing.T) {
	system := runtime.GOOS + "/" + runtime.GOARCH
	released := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}}
	assert.Equal(t, "v1.2.3 (go1.26.8 "+system+")", versionFrom(released))
	stamped := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261202071816-32b89f4d45fc+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "32b89f4d45fc0000"}, {Key: "vcs.modified", Value: "true"}}}
	assert.Equal(t, "v0.0.0-20261202071816-32b89f4d45fc+dirty (go1.26.8 "+system+")", versionFrom(stamped))

	fromGit := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "32b89f4a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f"},
		{Key: "vcs.time", Value: "2026-12-02T07:40:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	assert.Equal(t, "(devel) 32b89f4a1c2d 2026-12-02T07:40:00Z with changes (go1.26.8 "+system+")", versionFrom(fromGit))
}

func TestVersionFlagAndCommand(t *testing.T) {
	c := newCLI(t)
	// The binary may be stamped with its commit where this test is not.
	flag := c.run("-v")
	assert.Equal(t, 0, flag.code)
	assert.Regexp(t, `^jobtop \S.* \(go1\.\d+\S* `+runtime.GOOS+"/"+runtime.GOARCH+`\)\n$`, flag.stdout)
	assert.Empty(t, flag.stderr)
	command := c.run("version")
	assert.Equal(t, 0, command.code)
	assert.Equal(t, flag.stdout, command.stdout)
	far := c.run("version", "--host", "ssh://elsewhere")
	assert.Equal(t, 2, far.code)
	assert.Contains(t, far.stderr, "jobtop version runs here")
	far = c.run("--version", "--host", "ssh://elsewhere")
	assert.Equal(t, 2, far.code)
	assert.Contains(t, far.stderr, "jobtop --version runs here")
	assert.Empty(t, far.stdout)
	r := c.run("version", "extra")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `unknown command "extra"`)
}
