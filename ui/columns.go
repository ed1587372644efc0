package ui

import (
	"strconv"
)

// colKind names a job table column.
type colKind uint8

const (
	colID colKind = iota
	colName
	colStatus
	colPID
	colTime
	colExit
	colCPU
	colRSS
	colLines
	colOutput
)

// column is a laid-out column of the job table.
type column struct {
	kind  colKind
	title string
	width int
	right bool // right-aligned (numbers)
}

const (
	// markerWidth is the cells before the ID: the selection ("▸"), the
	// split mark ("◆"), what is unseen ("•" output, "!" an end) and a space.
	markerWidth  = 4
	colSep       = 1 // cells between columns
	nameMinWidth = 8
	nameMaxWidth = 24
	// nameKeptWidth is the NAME width kept until LINES and PID are
	// dropped: at 80 columns "frontend-dev-server" shows whole rather
	// than "fronten…" beside a PID.
	nameKeptWidth = 20
	statusWidth   = 15 // "■ killed (TERM)"
	outputMinimum = 12
)

// layoutColumns picks the columns that fit a table width. As the table
// narrows, the name shrinks to nameKeptWidth, LINES and PID are dropped,
// the name shrinks to nameMinWidth, then RSS, CPU%, EXIT and TIME are
// dropped; the last output line takes what is left (it is dropped only
// when fewer than outputMinimum cells remain).
func layoutColumns(width int, maxID int, longestName int) []column {
	idWidth := max(2, len(strconv.Itoa(maxID)))
	nameWidth := min(max(longestName, nameMinWidth, len("NAME")), nameMaxWidth)
	all := []column{
		{kind: colID, title: "ID", width: idWidth, right: true},
		{kind: colName, title: "NAME", width: nameWidth},
		{kind: colStatus, title: "STATUS", width: statusWidth},
		{kind: colPID, title: "PID", width: 7, right: true},
		{kind: colTime, title: "TIME", width: 6, right: true},
		{kind: colExit, title: "EXIT", width: 4, right: true},
		{kind: colCPU, title: "CPU%", width: 5, right: true},
		{kind: colRSS, title: "RSS", width: 5, right: true},
		{kind: colLines, title: "LINES", width: 6, right: true},
	}
	used := func(cols []column) int {
		n := markerWidth
		for _, c := range cols {
			n += c.width + colSep
		}
		return n
	}
	// Each step frees cells; a name width is how far the name shrinks.
	steps := []struct {
		drop      colKind
		nameFloor int
	}{
		{nameFloor: nameKeptWidth}, {drop: colLines}, {drop: colPID}, {nameFloor: nameMinWidth},
		{drop: colRSS}, {drop: colCPU}, {drop: colExit}, {drop: colTime},
	}
	for _, step := range steps {
		over := used(all) + outputMinimum - width
		if over <= 0 {
			break
		}
		if step.nameFloor > 0 {
			all[1].width = max(min(step.nameFloor, all[1].width), all[1].width-over)
			continue
		}
		all = dropColumn(all, step.drop)
	}
	if rest := width - used(all); rest >= outputMinimum {
		all = append(all, column{kind: colOutput, title: "OUTPUT", width: rest})
	} else if rest > 0 {
		// No room for output: give the space to the name.
		all[1].width += rest
	}
	return all
}

func dropColumn(cols []column, kind colKind) []column {
	out := cols[:0:0]
	for _, c := range cols {
		if c.kind != kind {
			out = append(out, c)
		}
	}
	return out
}

// nameWidth measures a job name as the table draws it.
func nameWidth(name string) int { return textWidth(label(name)) }
