package jobs

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckName(t *testing.T) {
	for _, ok := range []string{"web", "db-1", "a.b_c", "4x", "x4", "a-", "ns/web", strings.Repeat("a", 64)} {
		assert.NoError(t, CheckName(ok), ok)
	}
	cases := map[string]string{
		"":                      "a job name is empty",
		"4":                     `job name "4" is a number, which reads as a job ID: add a letter`,
		"007":                   `job name "007" is a number`,
		"has space":             `job name "has space" may only use ASCII letters, digits, ".", "_", "-" and "/"`,
		"-x":                    `starts with "-", which reads as a flag`,
		"-":                     `starts with "-"`,
		".":                     `is only dots`,
		"..":                    `is only dots`,
		"/b":                    `has an empty part`,
		"a//b":                  `has an empty part`,
		"a/":                    `has an empty part`,
		"é":                     `may only use ASCII letters`,
		strings.Repeat("a", 65): "is longer than 64 characters",
	}
	for name, want := range cases {
		err := CheckName(name)
		require.Error(t, err, "%q", name)
		assert.Contains(t, err.Error(), want)
	}
}

func TestStartRefusesBadNames(t *testing.T) {
	m := newManager(t, Options{})
	for _, name := range []string{"4", "has space", "tab\there"} {
		_, err := m.Start(Spec{Name: name, Command: "true"})
		require.Error(t, err, "%q", name)
		assert.Equal(t, CheckName(name).Error(), err.Error(), "the same message as a job file's")
	}
	assert.Empty(t, m.List())
}

// nameCase is a spec and the name it is given by default.
type nameCase struct {
	spec Spec
	want string
}

// assertDefaultNames checks each case's default name, and that it is a
// valid name, short enough.
func assertDefaultNames(t *testing.T, cases []nameCase) {
	t.Helper()
	for _, c := range cases {
		got := defaultName(c.spec)
		assert.Equal(t, c.want, got, "%+v", c.spec)
		assert.NoError(t, CheckName(got))
		assert.LessOrEqual(t, len(got), defaultNameLen)
	}
}

func TestDefaultName(t *testing.T) {
	cases := []nameCase{
		{Spec{Command: "make -j8"}, "make"},
		{Spec{Command: "./ÜberTool --serve"}, "UberTool"}, // an accented letter keeps its letter
		{Spec{Command: "python3 -u app.py"}, "app.py"},    // past an interpreter's options
		{Spec{Command: "bash -x deploy.sh"}, "deploy.sh"},
		{Spec{Command: "node --inspect srv.js"}, "srv.js"},
		{Spec{Command: "node -r dotenv/config srv.js"}, "srv.js"},
		{Spec{Command: "python3 -W ignore tool.py 8000"}, "tool.py"},
		{Spec{Command: "python3 -c 'print(1)'"}, "python3"},
		{Spec{Command: "bash -c 'make all'"}, "bash"},
		{Spec{Command: "bash -e -x ./deploy.sh"}, "deploy.sh"}, // -e is errexit to a shell
		{Spec{Command: "bash --rcfile rc s.sh"}, "s.sh"},
		{Spec{Command: "python3 -E -I app.py"}, "app.py"},
		{Spec{Command: "perl -e1 x"}, "perl"},
		{Spec{Command: "node -e 'x()' srv.js"}, "node"},
		{Spec{Command: "./données.sh"}, "donnees.sh"},
		{Spec{Command: "python3 ./ﬁle.py"}, "file.py"}, // a ligature's letters
		{Spec{Command: "./数据"}, "job"},                 // nothing left of it
		{Spec{Command: "  go test ./..."}, "go"},
		{Spec{Command: "./scripts/fake-db --port 5433"}, "fake-db"},
		{Spec{Command: "CI=1 GOFLAGS=-v exec npm run dev"}, "npm"},
		{Spec{Command: "env FOO=1 nohup time python3 -m http.server"}, "python3"},
		{Spec{Command: "'/opt/my tools/run.sh' a b"}, "run.sh"},
		{Spec{Command: `"./my server" --port 8080`}, "myserver"},
		{Spec{Command: "(cd web && make)"}, "make"},
		{Spec{Command: "cd /tmp && make -j8"}, "make"},
		{Spec{Command: "cd web; npm run dev"}, "npm"},
		{Spec{Command: "cd web"}, "cd"},
		{Spec{Command: "nice -n 10 make"}, "make"},
		{Spec{Command: "timeout 30s go test ./..."}, "go"},
		{Spec{Command: "sudo -E ./bin/server"}, "server"},
		{Spec{Argv: []string{"env", "FOO=1", "make"}}, "make"},
		{Spec{Command: "sudo -u bob make"}, "make"},
		{Spec{Command: "sudo -u bob -- make"}, "make"},
		{Spec{Command: "timeout -s KILL 5 sleep 1"}, "sleep"},
		{Spec{Command: "sudo"}, "sudo"},
		{Spec{Command: "timeout 30s"}, "timeout"},
		{Spec{Command: `cd "a;b" && make`}, "make"},
		{Spec{Command: "cd x && 10"}, "cd"},
		{Spec{Command: "sudo --user nobody true"}, "true"},
		{Spec{Command: "timeout --signal KILL 5 make"}, "make"},
		{Spec{Command: "sudo -iu nobody make"}, "make"},
		{Spec{Command: "exec -a foo make"}, "make"},
		{Spec{Argv: []string{"/usr/bin/nice", "-n", "5", "python3", "job.py"}}, "job.py"},
		{Spec{Command: "{ make; }"}, "make"},
		{Spec{Command: "> out.txt"}, "job"},
		{Spec{Command: "echo hi|wc -l"}, "echo"},
		{Spec{Command: "sleep 300; echo done"}, "sleep"},
		{Spec{Argv: []string{"/usr/bin/python3.12", "x.py"}}, "python3.12"},
		{Spec{Argv: []string{"./42"}}, "job"},
		{Spec{Argv: []string{"python3", "tool.py", "--fast"}}, "tool.py"},
		{Spec{Argv: []string{"python3", "-c", "print(1)"}}, "python3"},
		{Spec{Command: "ünïcødé"}, "unicode"},
		{Spec{Command: "..."}, "job"},
		{Spec{Command: "a-very-long-program-name-that-goes-on"}, "a-very-long-program"},
		{Spec{Command: "exec env -i sleep 5"}, "sleep"},
		{Spec{Command: "sh scripts/build.sh --fast"}, "build.sh"},
		{Spec{Command: "python3 -m http.server"}, "python3"},
		{Spec{Command: "node server.js"}, "server.js"},
	}
	assertDefaultNames(t, cases)
}

// A compound command is named after the first program in it (sh when it
// runs none), not after its keyword; a builtin that only sets the shell
// up is looked past to the command after it, and names the job only when
// nothing follows it.
func TestDefaultNameOfCompoundCommands(t *testing.T) {
	cases := []nameCase{
		{Spec{Command: "for f in *.go; do gofmt -l $f; done"}, "gofmt"},
		{Spec{Command: "for i in 1 2; do echo $i; done"}, "echo"},
		{Spec{Command: "for ((i = 0; i < 3; i++)); do make -C d$i; done"}, "make"},
		{Spec{Command: "for do in a b; do go test ./$do; done"}, "go"},
		{Spec{Command: "for i in 1 2\ndo\n  ./bin/step $i\ndone"}, "step"},
		{Spec{Command: "while :; do curl -s localhost:8080; sleep 1; done"}, "curl"},
		{Spec{Command: "while true; do date; sleep 1; done"}, "date"},
		{Spec{Command: "while sleep 5; do date; done"}, "sleep"},
		{Spec{Command: "until curl -sf localhost:8080; do sleep 1; done"}, "curl"},
		{Spec{Command: "if make; then ./app; fi"}, "make"},
		{Spec{Command: "if [ -f go.mod ]; then go build; else make; fi"}, "go"},
		{Spec{Command: "if [[ -n $CI ]]; then npm ci; fi"}, "npm"},
		{Spec{Command: "[[ -d node_modules ]] || npm install"}, "npm"},
		{Spec{Command: "case $1 in a) make a;; *) make;; esac"}, "make"},
		{Spec{Command: "case x in (a|b) :;; c) cargo run;; esac"}, "cargo"},
		{Spec{Command: "select x in a b; do vim $x; done"}, "vim"},
		{Spec{Command: "! grep -q error build.log"}, "grep"},
		{Spec{Command: "function serve { python3 -m http.server; }; serve"}, "python3"},
		{Spec{Command: "serve() { ./server --port 80; }; serve"}, "server"},
		{Spec{Command: "function f() { rsync -a a b; }"}, "rsync"},
		{Spec{Command: "(( n > 3 )) && make"}, "make"},
		{Spec{Command: "time { make; make test; }"}, "make"},
		{Spec{Command: "time -p make"}, "make"},
		{Spec{Command: "time while :; do curl x; done"}, "curl"},
		{Spec{Command: "coproc tail -f log"}, "tail"},
		{Spec{Command: "{ cd web && npm start; } 2>&1"}, "npm"},
		// No program in it: sh.
		{Spec{Command: "for i in 1 2; do :; done"}, "sh"},
		{Spec{Command: "while :; do :; done"}, "sh"},
		{Spec{Command: "if true; then exit 3; fi"}, "sh"},
		{Spec{Command: "[[ -f x ]]"}, "sh"},
		{Spec{Command: "! true"}, "sh"},
		// Builtins that set the shell up are looked past.
		{Spec{Command: "trap 'kill 0' EXIT; ./dev-server"}, "dev-server"},
		{Spec{Command: "trap 'rm -f $tmp' EXIT\nmake"}, "make"},
		{Spec{Command: "set -euo pipefail; cargo test"}, "cargo"},
		{Spec{Command: "export NODE_ENV=production; npm start"}, "npm"},
		{Spec{Command: "export X=1 && exec ./bin/api"}, "api"},
		{Spec{Command: "X=1; Y=2; make"}, "make"},
		{Spec{Command: "source .venv/bin/activate && python3 app.py"}, "app.py"},
		{Spec{Command: ". ./env.sh; node srv.js"}, "srv.js"},
		{Spec{Command: "cd web && trap 'x' INT && ./run"}, "run"},
		{Spec{Command: "exit 3; make"}, "make"},
		{Spec{Command: "[ -f .env ] && docker compose up"}, "docker"},
		{Spec{Command: "test -d out || mkdir out"}, "mkdir"},
		{Spec{Command: "eval \"$(direnv export bash)\"; make"}, "make"},
		{Spec{Command: "# start the api\n./api --port 80"}, "api"},
		{Spec{Command: "echo $(date) && make"}, "echo"},
		{Spec{Command: "2>/dev/null make"}, "make"},
		{Spec{Command: "make 2>&1 | tee log"}, "make"},
		{Spec{Command: `ma\ke all`}, "make"},
		{Spec{Command: `$'./my server' -v`}, "myserver"},
		// Nothing after them: their own name.
		// read, wait, exec with redirections alone, builtin (rev36).
		{Spec{Command: "while read l; do curl -s \"$l\"; done < urls"}, "curl"},
		{Spec{Command: "exec 3<>/dev/tcp/localhost/80; cat <&3"}, "cat"},
		{Spec{Command: "builtin echo hi; make"}, "echo"},
		{Spec{Command: "builtin cd web; make"}, "make"},
		{Spec{Command: "command make all"}, "make"},
		{Spec{Command: "sleep 1 & wait; make"}, "sleep"},
		{Spec{Command: "wait; make"}, "make"},
		{Spec{Command: "exit 3"}, "exit"},
		{Spec{Command: "trap 'echo bye' EXIT"}, "trap"},
		{Spec{Command: "set -e"}, "set"},
		{Spec{Command: "export X=1"}, "export"},
		{Spec{Command: "X=1"}, "job"},
	}
	assertDefaultNames(t, cases)
}

// A job started without a name gets its program's base name, made unique
// with -2, -3; the whole command stays in Command.
func TestUnnamedJobsGetShortUniqueNames(t *testing.T) {
	m := newManager(t, Options{})
	names := func() []string {
		var out []string
		for _, j := range m.List() {
			out = append(out, j.Name)
		}
		return out
	}
	a := start(t, m, Spec{Command: "sleep 0.01 && echo a"})
	start(t, m, Spec{Command: "sleep 0.01"})
	start(t, m, Spec{Name: "sleep-3", Command: "true"})
	start(t, m, Spec{Command: "/bin/sleep 0"})
	start(t, m, Spec{Argv: []string{"true"}})
	assert.Equal(t, []string{"sleep", "sleep-2", "sleep-3", "sleep-4", "true"}, names())
	assert.Equal(t, "sleep 0.01 && echo a", a.Command)

	// A freed name is used again.
	wait(t, m, a.ID)
	require.NoError(t, m.Remove(a.ID))
	assert.Equal(t, "sleep", start(t, m, Spec{Command: "sleep 0"}).Name)
	assert.Equal(t, "sleep-5", start(t, m, Spec{Command: "sleep 0"}).Name)

	// Only base-N with N a number without leading zeros counts.
	for _, name := range []string{"sleep-02", "sleep-6x", "sleep-", "sleep-99999999999999999999"} {
		start(t, m, Spec{Name: name, Command: "true"})
	}
	assert.Equal(t, "sleep-6", start(t, m, Spec{Command: "sleep 0"}).Name)

	// Replace without a name keeps the job's.
	info, err := m.Replace(a.ID+1, Spec{Command: "echo other"})
	require.NoError(t, err)
	assert.Equal(t, "sleep-2", info.Name)
}

// BenchmarkDefaultName measures making a default name unique among 1,000
// jobs that all have the same program, the worst case, against List of
// the same 1,000 jobs as the baseline (the API's GET /v1/jobs).
func BenchmarkDefaultName(b *testing.B) {
	m, err := NewManager(Options{LogDir: b.TempDir(), SampleInterval: -1})
	require.NoError(b, err)
	b.Cleanup(func() { require.NoError(b, m.Shutdown(context.Background())) })
	for k := 0; k < 1000; k++ {
		_, err := m.Add(Spec{Command: "sleep 300"})
		require.NoError(b, err)
	}
	b.Run("unique-name", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			m.mu.Lock()
			name := m.uniqueNameLocked(defaultName(Spec{Command: "sleep 300"}))
			m.mu.Unlock()
			if name != "sleep-1001" {
				b.Fatal(name)
			}
		}
	})
	b.Run("list-baseline", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if len(m.List()) != 1000 {
				b.Fatal("not 1000 jobs")
			}
		}
	})
}

// BadID says why a number names no job, whatever jobs there are; a
// possible ID, or a name, gets "".
func TestBadID(t *testing.T) {
	for s, want := range map[string]string{
		"0": "0 is not a job ID (IDs start at 1)", "00": "00 is not a job ID (IDs start at 1)",
		"+0": "+0 is not a job ID (IDs start at 1)", "-1": "-1 is not a job ID (IDs start at 1)",
		"-0":                   "-0 is not a job ID (IDs start at 1)",
		"99999999999999999999": "no job with ID 99999999999999999999",
		"7":                    "", "+7": "", "web": "", "-": "", "": "", "1.5": "",
	} {
		assert.Equal(t, want, BadID(s), "%q", s)
	}
}

// Whatever the command line, its default name is a valid name (and
// reading it ends).
func FuzzDefaultName(f *testing.F) {
	for _, c := range []string{"for f in *.go; do gofmt -l $f; done", "case x in a) :;; esac", "f() { make; }",
		"function", "(( x", "$(date", "'unterminated", `a\`, "time", "2>", "[[ x", "trap 'x' EXIT\nmake"} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		name := defaultName(Spec{Command: cmd})
		if err := CheckName(name); err != nil || len(name) > defaultNameLen {
			t.Fatalf("%q: %q: %v", cmd, name, err)
		}
	})
}
