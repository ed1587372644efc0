package ui

import (
	"errors"
	"time"

	"jobtop/jobs"
)

// fixedEngine is an engine whose jobs are snapshots a test made up, with
// times it chose: for drawings that depend on time (the timeline). Its
// jobs have no output and refuse every action.
type fixedEngine struct {
	list   []jobs.Info
	events chan []jobs.Event
}

var errFixed = errors.New("a fixed engine does not act")

func newFixedEngine(list ...jobs.Info) *fixedEngine {
	return &fixedEngine{list: list, events: make(chan []jobs.Event)}
}

func (e *fixedEngine) List() []jobs.Info { return e.list }
func (e *fixedEngine) Get(id jobs.ID) (jobs.Info, error) {
	for _, j := range e.list {
		if j.ID == id {
			return j, nil
		}
	}
	return jobs.Info{}, &jobs.NotFoundError{ID: id}
}
func (e *fixedEngine) Output(jobs.ID) (jobs.OutputReader, error) {
	return jobs.NewOutputStore(jobs.StoreOptions{}), nil
}
func (e *fixedEngine) Start(jobs.Spec) (jobs.Info, error) { return jobs.Info{}, errFixed }
func (e *fixedEngine) Stop(jobs.ID) error                 { return errFixed }
func (e *fixedEngine) Kill(jobs.ID) error                 { return errFixed }
func (e *fixedEngine) Restart(jobs.ID) (jobs.Info, error) { return jobs.Info{}, errFixed }
func (e *fixedEngine) Remove(jobs.ID) error               { return errFixed }
func (e *fixedEngine) Subscribe() jobs.EventStream        { return fixedStream{e.events} }

type fixedStream struct{ c chan []jobs.Event }

func (s fixedStream) C() <-chan []jobs.Event { return s.c }
func (s fixedStream) Close()                 {}

// fixedNow is the clock of tests on a fixed engine.
var fixedNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// at is fixedNow moved by d (negative: before).
func at(d time.Duration) time.Time { return fixedNow.Add(d) }

// atp is at, as a pointer.
func atp(d time.Duration) *time.Time { t := at(d); return &t }

// ended is a run record that ended.
func ended(run int, from, to time.Duration, state jobs.State, code int) jobs.RunRecord {
	r := jobs.RunRecord{Run: run, Started: at(from), Ended: atp(to), State: state}
	if state == jobs.StateSucceeded || state == jobs.StateFailed {
		r.ExitCode = &code
	}
	return r
}
