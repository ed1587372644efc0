package ui

import (
	"jobtop/jobs"
)

// originMark is what the job table writes after the name of a job that a
// program started for someone ("[mcp]" for a coding agent's), so a person
// tells their own jobs from an agent's at a glance. Empty for the rest.
func originMark(info jobs.Info) string {
	if info.Origin == "" {
		return ""
	}
	return " [" + sanitize(info.Origin, false) + "]"
}

// tableName is the NAME cell: the name, cut to leave room for the origin
// mark, then the mark, within width cells.
func tableName(info jobs.Info, width int) string {
	mark := originMark(info)
	name := label(info.Name)
	if mark == "" {
		return name
	}
	room := width - textWidth(mark)
	if room < 3 {
		return cut(name, width)
	}
	return cut(name, room) + mark
}

// tableNameWidth is the width the NAME cell wants for a job.
func tableNameWidth(info jobs.Info) int {
	return nameWidth(info.Name) + textWidth(originMark(info))
}

// originText says who started a job, for the pane header: "[mcp:
// claude-code]", or "[mcp]" when the client gave no name; empty for a
// person's own jobs.
func originText(info jobs.Info) string {
	switch {
	case info.Origin == "":
		return ""
	case info.Client == "":
		return "[" + sanitize(info.Origin, false) + "]"
	}
	return "[" + sanitize(info.Origin, false) + ": " + sanitize(info.Client, false) + "]"
}
