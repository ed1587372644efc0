package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"jobtop/jobs"
)

func newTraceCmd() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Write every job's runs as a Chrome trace (Perfetto, chrome://tracing)",
		Long: `Write the runs of every job of the instance on the socket as Chrome Trace
Event Format JSON: one track per job, named after it, a slice per run
(its command, state, exit code or signal in the slice's arguments) and a
marker where a run became ready. A run still going on ends at the time of
the trace. Open the file in https://ui.perfetto.dev or chrome://tracing.
Each job keeps its newest 100 runs.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			list, err := newClient(cmd).Jobs(cmd.Context())
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if output != "" && output != "-" {
				f, err := os.Create(output)
				if err != nil {
					return fmt.Errorf("cannot write the trace: %w", err)
				}
				defer f.Close()
				out = f
			}
			if err := writeTrace(out, list, time.Now()); err != nil {
				return fmt.Errorf("cannot write the trace: %w", err)
			}
			if output != "" && output != "-" {
				fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", output)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the trace to `FILE` instead of stdout")
	return cmd
}

// traceEvent is one event of the Chrome Trace Event Format: times in
// microseconds, pid and tid name the track.
type traceEvent struct {
	Name  string         `json:"name"`
	Cat   string         `json:"cat,omitempty"`
	Phase string         `json:"ph"`
	TS    int64          `json:"ts"`
	Dur   *int64         `json:"dur,omitempty"`
	PID   int            `json:"pid"`
	TID   int            `json:"tid"`
	Scope string         `json:"s,omitempty"`
	Args  map[string]any `json:"args,omitempty"`
}

// traceFile is the JSON object format of a trace.
type traceFile struct {
	TraceEvents     []traceEvent `json:"traceEvents"`
	DisplayTimeUnit string       `json:"displayTimeUnit"`
}

// tracePID is the one "process" of a trace: the instance.
const tracePID = 1

// traceEvents turns jobs into trace events: a thread named after each job,
// a complete event ("X") per run, an instant event ("i") per readiness.
// Runs still going on end at now.
func traceEvents(list []jobs.Info, now time.Time) []traceEvent {
	evs := []traceEvent{{Name: "process_name", Phase: "M", PID: tracePID, Args: map[string]any{"name": "jobtop"}}}
	for _, j := range list {
		tid := int(j.ID)
		evs = append(evs,
			traceEvent{Name: "thread_name", Phase: "M", PID: tracePID, TID: tid, Args: map[string]any{"name": fmt.Sprintf("%d %s", j.ID, j.Name)}},
			traceEvent{Name: "thread_sort_index", Phase: "M", PID: tracePID, TID: tid, Args: map[string]any{"sort_index": tid}})
		for _, r := range j.RunRecords() {
			dur := r.Duration(now).Microseconds()
			args := map[string]any{"command": j.Command, "run": r.Run, "state": string(r.State)}
			if r.ExitCode != nil {
				args["exit_code"] = *r.ExitCode
			}
			if r.Signal != 0 {
				args["signal"] = r.Signal.String()
			}
			if r.Ended == nil {
				args["running"] = true
			}
			evs = append(evs, traceEvent{Name: j.Name, Cat: "run", Phase: "X", TS: r.Started.UnixMicro(), Dur: &dur, PID: tracePID, TID: tid, Args: args})
			if r.Ready != nil && j.Readiness != "" {
				evs = append(evs, traceEvent{Name: "ready", Cat: "ready", Phase: "i", Scope: "t", TS: r.Ready.UnixMicro(), PID: tracePID, TID: tid,
					Args: map[string]any{"check": j.Readiness, "run": r.Run}})
			}
		}
	}
	return evs
}

// writeTrace writes the jobs' trace as one JSON object, with C1
// controls from jobs' names and commands escaped as --json does (c1Safe):
// the same JSON, and nothing a terminal acts on.
func writeTrace(w io.Writer, list []jobs.Info, now time.Time) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(c1Safe{bw})
	enc.SetEscapeHTML(false)
	if err := enc.Encode(traceFile{TraceEvents: traceEvents(list, now), DisplayTimeUnit: "ms"}); err != nil {
		return err
	}
	return bw.Flush()
}
