package jobfile

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func TestParseProcfile(t *testing.T) {
	dir := inDir(t, nil)
	src := "# comment\n\nweb: bundle exec rails s -p $PORT\r\n  worker:python worker.py --queue=a:b  \n"
	plan, err := Parse("Procfile", []byte(src))
	require.NoError(t, err)
	require.Equal(t, FormatProcfile, plan.Format)
	require.Equal(t, []Job{
		{Name: "web", Autostart: true, Line: 3, Col: 1, Spec: jobs.Spec{Name: "web", Command: "bundle exec rails s -p $PORT", Dir: dir}},
		{Name: "worker", Autostart: true, Line: 4, Col: 3, Spec: jobs.Spec{Name: "worker", Command: "python worker.py --queue=a:b", Dir: dir}},
	}, plan.Jobs)
	require.Equal(t, []string{"web", "worker"}, plan.Order)
}

func TestParseProcfileErrors(t *testing.T) {
	inDir(t, nil)
	tests := []struct {
		name, src string
		want      []string
	}{
		{"empty", "# nothing\n\n", []string{`Procfile: no jobs: write one "name: command" line per job`}},
		{"every problem", "web: run\nno colon here\nbad name: x\n42: x\nempty:\nweb: again\nok: \"a\x00b\"\n", []string{
			`Procfile:2: want "name: command", got "no colon here"`,
			`Procfile:3: job name "bad name" may only use letters, digits, ".", "_" and "-"`,
			`Procfile:4: job name "42" is a number, which reads as a job ID: add a letter`,
			`Procfile:5: job "empty" has no command`,
			`Procfile:6: job "web" is already defined on line 1`,
			`Procfile:7: job "ok": command contains a NUL byte`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("Procfile", []byte(tt.src))
			var list ErrorList
			require.True(t, errors.As(err, &list), "got %v", err)
			require.Equal(t, tt.want, strings.Split(list.Error(), "\n"))
		})
	}
}
