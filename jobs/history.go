package jobs

import "time"

// MaxRunHistory is how many ended runs a job remembers (Info.History):
// the newest ones. A job restarted without end keeps a bounded record.
const MaxRunHistory = 100

// RunRecord is one run of a job: when it started, became ready and ended,
// and how it ended. The JSON field names are part of the API.
type RunRecord struct {
	// Run numbers the job's runs from 1 (Info.Runs is the newest).
	Run     int       `json:"run"`
	Started time.Time `json:"started_at"`
	// Ready is when the run became ready; nil (null) if it never did.
	Ready *time.Time `json:"ready_at"`
	// Ended is nil while the run goes on.
	Ended *time.Time `json:"ended_at"`
	State State      `json:"state"`
	// ExitCode and Signal say how the run ended, as Info's do: nil
	// (null) and 0 (null) when it had none.
	ExitCode *int   `json:"exit_code"`
	Signal   Signal `json:"signal"`
}

// Duration is how long the run took, or has taken by now.
func (r RunRecord) Duration(now time.Time) time.Duration {
	if r.Ended != nil {
		return r.Ended.Sub(r.Started)
	}
	return now.Sub(r.Started)
}

// runHistory is a job's ended runs, oldest first, at most MaxRunHistory.
// A record never changes once added, so snapshots share the slice.
type runHistory struct {
	ended   []RunRecord
	current RunRecord // the run going on, when Started is set
}

// begin records a run's start.
func (h *runHistory) begin(run int, at time.Time) {
	h.current = RunRecord{Run: run, Started: at, State: StateRunning}
}

// ready records that the current run became ready.
func (h *runHistory) ready(at time.Time) {
	if !h.current.Started.IsZero() && h.current.Ready == nil {
		h.current.Ready = &at
	}
}

// end records how the current run ended and moves it to the ended runs.
func (h *runHistory) end(at time.Time, state State, code *int, sig Signal) {
	if h.current.Started.IsZero() {
		return
	}
	r := h.current
	r.Ended, r.State, r.Signal = &at, state, sig
	if code != nil {
		c := *code
		r.ExitCode = &c
	}
	h.current = RunRecord{}
	if len(h.ended) >= MaxRunHistory {
		// A new array: snapshots keep theirs.
		keep := make([]RunRecord, MaxRunHistory-1, MaxRunHistory)
		copy(keep, h.ended[len(h.ended)-MaxRunHistory+1:])
		h.ended = keep
	}
	h.ended = append(h.ended, r)
}

// snapshot is the ended runs, shared: Info.History.
func (h *runHistory) snapshot() []RunRecord { return h.ended[:len(h.ended):len(h.ended)] }

// readyAt is when the current run became ready, nil if it has not.
func (h *runHistory) readyAt() *time.Time { return h.current.Ready }

// RunRecords lists every run the snapshot knows of, oldest first: the
// ended runs of History, then the current run while it goes on.
func (i Info) RunRecords() []RunRecord {
	out := append([]RunRecord(nil), i.History...)
	if i.Started != nil && i.State.Active() && (len(out) == 0 || out[len(out)-1].Run < i.Runs) {
		out = append(out, RunRecord{Run: i.Runs, Started: *i.Started, Ready: i.ReadyAt, State: i.State})
	}
	return out
}
