package jobfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bom is the UTF-8 byte order mark Windows editors (Notepad) write first.
const bom = "\ufeff"

// A file saved with a byte order mark reads as the same file without
// one: its first variable, process or key is not lost or misnamed.
func TestFilesStartingWithAByteOrderMark(t *testing.T) {
	t.Setenv("PORT", "")
	inDir(t, map[string]string{
		"Procfile":         bom + "web: ./run\n",
		".env":             bom + "PORT=7000\nOTHER=x\n",
		"extra.env":        bom + "FIRST=1\n",
		"yaml/jobtop.yaml": bom + "jobs:\n  web:\n    cmd: ./run\n",
		"yaml/.env":        bom + "FIRST=yaml\n",
		"pc/process-compose.yaml": bom + "version: \"0.5\"\nprocesses:\n  web:\n    command: ./run\n" +
			"    env_file: pc.env\n",
		"pc/pc.env": bom + "FIRST=pc\n",
	})
	plan, err := Load("Procfile")
	require.NoError(t, err)
	require.Len(t, plan.Jobs, 1)
	assert.Equal(t, "web", plan.Jobs[0].Name)
	assert.Equal(t, map[string]string{"PORT": "7000", "OTHER": "x", "PS": "web.1"}, plan.Jobs[0].Spec.Env,
		"the first variable of .env is PORT, the base of the ports")

	plan, err = LoadWith("Procfile", LoadOptions{EnvFiles: []string{"extra.env"}})
	require.NoError(t, err)
	assert.Equal(t, "1", plan.Jobs[0].Spec.Env["FIRST"], "an --env-file with a byte order mark")

	plan, err = Load("yaml/jobtop.yaml")
	require.NoError(t, err)
	require.Len(t, plan.Jobs, 1)
	assert.Equal(t, "web", plan.Jobs[0].Name)
	assert.Equal(t, "yaml", plan.Jobs[0].Spec.Env["FIRST"])
	assert.Empty(t, plan.Warnings)

	plan, err = Load("pc/process-compose.yaml")
	require.NoError(t, err)
	require.Len(t, plan.Jobs, 1)
	assert.Equal(t, "pc", plan.Jobs[0].Spec.Env["FIRST"])
	assert.Empty(t, plan.Warnings, "version is a known key, not \"\\ufeffversion\"")
}
