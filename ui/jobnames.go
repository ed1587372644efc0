package ui

import (
	"strings"

	"jobtop/jobs"
)

// jobNames are the "all" view's line prefixes: each job's name in its own
// colour, padded to the longest name (within limits); and which jobs'
// log files missed output, for its note on dropped lines.
type jobNames struct {
	pal     *palette
	names   map[jobs.ID]string
	logLost map[jobs.ID]bool
	widths  map[jobs.ID]int // each name's width, measured once
	width   int             // the widest
	cache   map[jobs.ID][2]string
	cw      int // prefix width the cache was built for
}

// namePrefixMax bounds the name in the "all" view's prefixes.
const namePrefixMax = 16

func newJobNames(pal *palette) *jobNames {
	return &jobNames{pal: pal, names: map[jobs.ID]string{}, logLost: map[jobs.ID]bool{},
		widths: map[jobs.ID]int{}, cache: map[jobs.ID][2]string{}}
}

// set records a job's name, and whether its log file missed output. It
// is called for every event of a job: only a name not seen before is
// measured.
func (n *jobNames) set(info jobs.Info) {
	id, name := info.ID, info.Name
	if info.LogDropped > 0 {
		n.logLost[id] = true
	}
	if old, ok := n.names[id]; ok && old == name {
		return
	}
	n.names[id] = name
	old, w := n.widths[id], nameWidth(name)
	n.widths[id] = w
	delete(n.cache, id)
	switch {
	case w > n.width:
		n.setWidth(w)
	case old == n.width && w < old:
		n.remeasure() // it may have been the widest
	}
}

// forget drops a job's name.
func (n *jobNames) forget(id jobs.ID) {
	if _, ok := n.names[id]; !ok {
		return
	}
	w := n.widths[id]
	delete(n.names, id)
	delete(n.logLost, id)
	delete(n.widths, id)
	delete(n.cache, id)
	if w == n.width {
		n.remeasure()
	}
}

// remeasure finds the widest name again, from the widths measured.
func (n *jobNames) remeasure() {
	widest := 0
	for _, w := range n.widths {
		widest = max(widest, w)
	}
	n.setWidth(widest)
}

func (n *jobNames) setWidth(w int) {
	if w != n.width {
		n.width = w
		clear(n.cache)
	}
}

// prefix is a job's prefix in a pane of paneWidth cells, the blank prefix
// of its wrapped rows, and their width.
func (n *jobNames) prefix(id jobs.ID, paneWidth int) (string, string, int) {
	w := min(n.width, namePrefixMax, paneWidth/3, paneWidth-4)
	if w <= 0 {
		return "", "", 0
	}
	if n.cw != w {
		clear(n.cache)
		n.cw = w
	}
	if c, ok := n.cache[id]; ok {
		return c[0], c[1], w + 3
	}
	sep := n.pal.muted.Wrap(" │ ")
	name := fit(sanitize(n.names[id], false), w, false)
	c := [2]string{n.pal.jobName(id).Wrap(name) + sep, strings.Repeat(" ", w) + sep}
	n.cache[id] = c
	return c[0], c[1], w + 3
}
