package ui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// The TUI with 1,000 running jobs, 100 of them writing (issue 16):
//
//	go test ./ui/ -run '^$' -bench Thousand -benchtime 2000x
//
// The jobs are the bigFixture's, shown as running: what a frame costs
// does not depend on the processes behind them.

// thousandRunning is a model at 200x50 over 1,000 jobs shown as running,
// and the event batch of a frame in which every tenth of them wrote.
func thousandRunning(b *testing.B) (*Model, func(i int) []jobs.Event) {
	mgr := bigFixture(b, 1000, 10)
	m := New(mgr, Config{})
	b.Cleanup(m.Close)
	started := time.Now().Add(-time.Minute)
	list := m.table.Jobs()
	var batch []jobs.Event
	for i := range list {
		info := list[i]
		info.State, info.Started, info.PID, info.ExitCode = jobs.StateRunning, &started, 10_000+i, nil
		info.Usage.RSS, info.Usage.CPU = 2<<20, 0.5
		m.table.Upsert(info)
		if i%10 == 0 {
			batch = append(batch, jobs.Event{Kind: jobs.EventOutput, Job: info})
		}
	}
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	frame := func(i int) []jobs.Event {
		out := make([]jobs.Event, len(batch))
		for k, ev := range batch {
			ev.Job.Lines += uint64(i) * 1000
			ev.Job.Bytes += int64(i) * 81000
			ev.Job.LastLine = fmt.Sprintf("%s %d", line80, i)
			out[k] = ev
		}
		return out
	}
	_ = m.View()
	return m, frame
}

func BenchmarkThousand(b *testing.B) {
	cases := []struct {
		name  string
		setup []string
		frame func(m *Model, batch func(int) []jobs.Event, i int)
	}{
		{"View", nil, func(m *Model, _ func(int) []jobs.Event, _ int) { _ = m.View() }},
		{"KeyZoom", nil, func(m *Model, _ func(int) []jobs.Event, _ int) {
			m.Update(keyMsg("z"))
			_ = m.View()
		}},
		{"KeyTableDown", nil, func(m *Model, _ func(int) []jobs.Event, i int) {
			m.Update(keyMsg([]string{"j", "j", "k"}[i%3]))
			_ = m.View()
		}},
		{"Output100", nil, func(m *Model, batch func(int) []jobs.Event, i int) {
			m.Update(jobEventsMsg{events: batch(i)})
			_ = m.View()
		}},
		{"Output100Filtered", []string{"/", "j", "o", "b", "0", "7", "enter"}, func(m *Model, batch func(int) []jobs.Event, i int) {
			m.Update(jobEventsMsg{events: batch(i)})
			_ = m.View()
		}},
		{"FilterKey", []string{"/"}, func(m *Model, _ func(int) []jobs.Event, i int) {
			m.Update(keyMsg([]string{"j", "o", "b", "backspace", "backspace", "backspace"}[i%6]))
			_ = m.View()
		}},
		{"Tick", nil, func(m *Model, _ func(int) []jobs.Event, _ int) {
			m.Update(tickMsg{})
			_ = m.View()
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			m, batch := thousandRunning(b)
			for _, k := range c.setup {
				m.Update(keyMsg(k))
			}
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				c.frame(m, batch, i)
				i++
			}
		})
	}
}

// BenchmarkThousandArrive is a job file's 1,000 jobs arriving one by one
// while the TUI draws (its first frame comes before they start): the
// events of one job, then a frame, per job.
func BenchmarkThousandArrive(b *testing.B) {
	mgr := bigFixture(b, 1000, 10)
	list := mgr.List()
	b.ReportAllocs()
	for b.Loop() {
		m := New(emptyEngine{mgr}, Config{})
		m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
		for i := range list {
			m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventAdded, Job: list[i]}}})
			_ = m.View()
		}
		m.Close()
	}
}

// emptyEngine is an engine whose list starts empty: its jobs arrive as
// events only.
type emptyEngine struct{ *jobs.Manager }

func (emptyEngine) List() []jobs.Info { return nil }
