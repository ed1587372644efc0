package ui

import (
	"strings"

	"jobtop/jobs"
)

// jobFilter picks the job table's rows: the jobs whose name, command or
// state contain its text, smart-case (case matters only when the text has
// an upper-case letter).
type jobFilter struct {
	text  string
	fold  bool
	lower string
}

func newJobFilter(text string) jobFilter {
	return jobFilter{text: text, fold: !hasUpper(text, false), lower: strings.ToLower(text)}
}

func (f jobFilter) active() bool { return f.text != "" }

func (f jobFilter) match(j jobs.Info) bool {
	for _, field := range []string{j.Name, j.Command, stateLabel(j.State), string(j.State)} {
		if f.fold {
			if strings.Contains(strings.ToLower(field), f.lower) {
				return true
			}
		} else if strings.Contains(field, f.text) {
			return true
		}
	}
	return false
}

// SetFilter shows only the jobs whose name, command or state contain
// text ("": every job). The selection moves to a job shown when its own
// row is hidden.
func (t *jobTable) SetFilter(text string) {
	t.filter = newJobFilter(text)
	t.Refilter()
}

// Filter is the filter's text.
func (t *jobTable) Filter() string { return t.filter.text }

// Refilter applies the filter again, after jobs changed; it keeps a job
// selected when any is shown.
func (t *jobTable) Refilter() {
	t.rows = t.rows[:0]
	clear(t.rowOf)
	if t.Filtering() {
		for i, j := range t.jobs {
			if t.shows(j) {
				t.rowOf[j.ID] = len(t.rows)
				t.rows = append(t.rows, i)
			}
		}
	}
	if _, shown := t.rowIndex(t.selected); !shown {
		t.selected = t.nearestShown(t.selected)
	}
	t.scrollToSelection()
}

// nearestShown is the job shown nearest to a hidden one in the table's
// order, the next one first (as a removed row's place goes to the job
// after it): hiding a job (H, a filter) leaves the selection beside it,
// not at the top. 0 when no job is shown.
func (t *jobTable) nearestShown(id jobs.ID) jobs.ID {
	if t.Len() == 0 {
		return 0
	}
	i, ok := t.index[id]
	if !ok {
		return t.row(0).ID
	}
	for j := i + 1; j < len(t.jobs); j++ {
		if t.shows(t.jobs[j]) {
			return t.jobs[j].ID
		}
	}
	for j := i - 1; j >= 0; j-- {
		if t.shows(t.jobs[j]) {
			return t.jobs[j].ID
		}
	}
	return t.row(0).ID
}

// rowIndex is the row a job is shown in.
func (t *jobTable) rowIndex(id jobs.ID) (int, bool) {
	if t.Filtering() {
		i, ok := t.rowOf[id]
		return i, ok
	}
	i, ok := t.index[id]
	return i, ok
}

func (t *jobTable) reindex(from int) {
	for i := from; i < len(t.jobs); i++ {
		t.index[t.jobs[i].ID] = i
	}
}
