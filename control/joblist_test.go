package control

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// oddText has every byte below 0x80, HTML characters, invalid UTF-8 and
// the two line separators encoding/json escapes.
func oddText() string {
	var b strings.Builder
	for c := range 0x80 {
		b.WriteByte(byte(c))
	}
	b.WriteString("<a href='x'>&amp;</a> é 日本 \u2028 \u2029 \xff\xfe \xe2\x82 ok")
	return b.String()
}

// filledInfo is a jobs.Info with every field set (reflect walks them, so
// a field added to jobs.Info is set too): strings to oddText, numbers to
// n, pointers to a value, slices to two elements.
func filledInfo(n int) jobs.Info {
	var info jobs.Info
	fill(reflect.ValueOf(&info).Elem(), n)
	return info
}

func fill(v reflect.Value, n int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("%d %s", n, oddText()))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(n) + 0.25)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n+1)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n+2)
		fill(v.Index(1), n+3)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 12, 7, 1, 2, 3, n, time.FixedZone("x", 5*3600+1800))))
			return
		}
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() && v.Type().Field(i).Tag.Get("json") != "-" {
				fill(f, n+i)
			}
		}
	}
}

// TestJobListEncodesAsEncodingJSON: the hand-written job list is the
// bytes encoding/json writes, for every field set, none, and values
// encoding/json writes its own way.
func TestJobListEncodesAsEncodingJSON(t *testing.T) {
	assert.Equal(t, jsonFields(reflect.TypeFor[jobs.Info]()), jobFieldNames(), "jobFields has every field of jobs.Info, in order")

	exit := 0
	now := time.Now()
	utc := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	list := []jobs.Info{
		filledInfo(7),
		{},
		{ID: 3, Name: "web", State: jobs.StateFailed, ExitCode: &exit, Signal: jobs.Signal(syscall.SIGKILL), Started: &now, Ended: &utc,
			History: []jobs.RunRecord{{Run: 1, Started: utc}, {Run: 2, Started: now, Signal: jobs.Signal(99)}}},
	}
	for _, cpu := range []float64{0, 1e-7, -1e-7, 1.5e-300, 1e20, 1e21, 123456789.123, 5e-324, 99.99999} {
		list = append(list, jobs.Info{ID: 9, Usage: jobs.Usage{CPU: cpu, RSS: -1}})
	}
	sameJSON(t, encodeJSON(list), encodeJobList(list, jobFields[:]))
	assert.Equal(t, "[]\n", string(encodeJobList(nil, jobFields[:])))

	// What encoding/json refuses, it refuses in the answer as before.
	late := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, bad := range []jobs.Info{{Started: &late}, {History: []jobs.RunRecord{{Started: late}}}} {
		sameJSON(t, encodeJSON([]jobs.Info{bad}), encodeJobList([]jobs.Info{bad}, jobFields[:]))
	}
}

// sameJSON fails where got first differs from want, and shows that
// place of both (the whole of them is pages).
func sameJSON(t *testing.T, want, got []byte) {
	t.Helper()
	i := 0
	for i < min(len(want), len(got)) && want[i] == got[i] {
		i++
	}
	if i < len(want) || i < len(got) {
		from := max(0, i-80)
		t.Errorf("differs at byte %d:\nwant ...%q\n got ...%q", i, want[from:min(len(want), i+80)], got[from:min(len(got), i+80)])
	}
}

// TestJobListFields: ?fields= keeps those fields of each job, as the
// whole object has them; an unknown one is refused with the known ones.
func TestJobListFields(t *testing.T) {
	in := startInstance(t)
	in.startJob(t, "exec sleep 60")
	in.startJob(t, "exit 3")
	in.waitEnded(t, 2)
	get := func(query string) (int, string) {
		resp, err := in.client.http.Get("http://jobtop/v1/jobs?" + query)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b)
	}
	_, whole := get("")
	var full []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(whole), &full))
	require.Len(t, full, 2)

	status, some := get("fields=state,exit_code,name,pid&fields=id")
	require.Equal(t, http.StatusOK, status, some)
	var parts []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(some), &parts))
	for i, job := range parts {
		want := map[string]json.RawMessage{}
		for _, k := range []string{"id", "name", "state", "pid", "exit_code"} {
			if v, ok := full[i][k]; ok {
				want[k] = v
			}
		}
		assert.Equal(t, want, job, "job %d", i+1)
	}
	assert.True(t, strings.HasPrefix(some, `[{"id":1,"name":`), "in the object's order: %s", some)

	status, some = get("fields=id&state=failed")
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "[{\"id\":2}]\n", some, "with a selector")

	status, some = get("fields=id,nmae")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, some, `unknown job field \"nmae\" in fields; known fields: id, name, command, argv,`)

	for _, q := range []string{"fields=", "fields=id,", "fields=id&fields=&fields=name"} {
		status, some = get(q)
		assert.Equal(t, http.StatusBadRequest, status, q)
		assert.Contains(t, some, `an empty name in fields picks nothing: give field names (id, name,`, q)
	}
}

// TestJobsAsGetsItsFieldsOnly: JobsAs asks for the fields of its type and
// reads what Jobs reads of them; of an instance older than ?fields= it
// gets every field, as before.
func TestJobsAsGetsItsFieldsOnly(t *testing.T) {
	type row struct {
		ID    jobs.ID    `json:"id"`
		Name  string     `json:"name"`
		State jobs.State `json:"state"`
	}
	in := startInstance(t)
	in.startJob(t, "exec sleep 60")
	ended := in.startJob(t, "true")
	// Ended before both reads: a job ending between them read running,
	// then succeeded (seen once under -race).
	_, err := in.client.WaitJob(ctxT(t), ended.ID, 0)
	require.NoError(t, err)
	rows, err := JobsAs[row](ctxT(t), in.client, JobFilter{})
	require.NoError(t, err)
	all, err := in.client.Jobs(ctxT(t))
	require.NoError(t, err)
	require.Len(t, rows, 2)
	for i, r := range rows {
		assert.Equal(t, row{all[i].ID, all[i].Name, all[i].State}, r)
	}

	// An older instance: it refuses the parameter as it refused any it
	// did not know.
	socket := filepath.Join(shortTempDir(t), "old.sock")
	l, err := net.Listen("unix", socket)
	require.NoError(t, err)
	var asked []string
	old := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/instance":
			fmt.Fprint(w, `{"pid": 1, "kind": "serve", "api_version": 2}`)
		case "/v1/jobs":
			asked = append(asked, r.URL.RawQuery)
			if r.URL.Query().Has("fields") {
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprint(w, `{"error": "unknown parameter \"fields\": the job list takes job (an ID or a name, repeated for several), state and name (a glob)"}`)
				return
			}
			fmt.Fprint(w, `[{"id": 4, "name": "old", "command": "x", "state": "running", "pid": 9, "log_path": "/l"}]`)
		}
	})}
	go old.Serve(l) //nolint:errcheck // closed below
	t.Cleanup(func() { old.Close() })
	c := NewClient(socket)
	t.Cleanup(func() { c.Close() })
	rows, err = JobsAs[row](ctxT(t), c, JobFilter{State: "running"})
	require.NoError(t, err)
	assert.Equal(t, []row{{4, "old", jobs.StateRunning}}, rows)
	assert.Equal(t, []string{"fields=id%2Cname%2Cstate&state=running", "state=running"}, asked)
}
