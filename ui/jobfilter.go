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
