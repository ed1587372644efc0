package ui

import "jobtop/jobs"

// colHost is the HOST column: the host a job runs on, shown only when the
// engine holds several hosts' jobs. It comes after the ID, and its cells
// are taken from the columns laid out without it.
const colHost colKind = 100

// hostMaxWidth caps the HOST column.
const hostMaxWidth = 20

// tableIDs measures what the ID and HOST columns show: the largest ID
// shown (shownID) and the widest host name (0 without hosts).
func tableIDs(list []jobs.Info) (maxID, hostWidth int) {
	for _, j := range list {
		maxID = max(maxID, int(shownID(j)))
		if j.Host != "" {
			hostWidth = max(hostWidth, len("HOST"), min(textWidth(label(j.Host)), hostMaxWidth))
		}
	}
	return maxID, hostWidth
}

// withHostColumn lays out the columns for width with a HOST column of
// hostWidth cells after the ID (none when hostWidth is 0).
func withHostColumn(width, maxID, longestName, hostWidth int) []column {
	if hostWidth == 0 {
		return layoutColumns(width, maxID, longestName)
	}
	cols := layoutColumns(width-hostWidth-colSep, maxID, longestName)
	host := column{kind: colHost, title: "HOST", width: hostWidth}
	return append(cols[:1:1], append([]column{host}, cols[1:]...)...)
}
