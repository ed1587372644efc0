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
	markerWidth   = 4
	colSep        = 1 // cells between columns
	nameMinWidth  = 8
	nameMaxWidth  = 24
	statusWidth   = 15 // "■ killed (TERM)"
	outputMinimum = 12
)

// layoutColumns picks the columns that fit a table width. Columns are
// dropped in this order as the table narrows: LINES, PID, RSS, CPU%, EXIT,
// TIME; the
// name shrinks to nameMinWidth first, and the last output line takes what
// is left (it is dropped only when fewer than outputMinimum cells remain).
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
	dropOrder := []colKind{colLines, colPID, colRSS, colCPU, colExit, colTime}
	for used(all)+outputMinimum > width {
		if all[1].width > nameMinWidth {
			all[1].width = max(nameMinWidth, all[1].width-(used(all)+outputMinimum-width))
			continue
		}
		if len(dropOrder) == 0 {
			break
		}
		all = dropColumn(all, dropOrder[0])
		dropOrder = dropOrder[1:]
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
