package ui

import (
	"strings"

	"jobtop/jobs"
)

// jobNames are the "all" view's line prefixes: each job's name in its own
// colour, padded to the longest name (within limits).
type jobNames struct {
	pal   *palette
	names map[jobs.ID]string
	width int
	cache map[jobs.ID][2]string
	cw    int // prefix width the cache was built for
}

// namePrefixMax bounds the name in the "all" view's prefixes.
const namePrefixMax = 16

func newJobNames(pal *palette) *jobNames {
	return &jobNames{pal: pal, names: map[jobs.ID]string{}, cache: map[jobs.ID][2]string{}}
}

// set records a job's name.
func (n *jobNames) set(id jobs.ID, name string) {
	if n.names[id] == name {
		return
	}
	n.names[id] = name
	n.measure()
}

// forget drops a job's name.
func (n *jobNames) forget(id jobs.ID) {
	if _, ok := n.names[id]; ok {
		delete(n.names, id)
		n.measure()
	}
}

func (n *jobNames) measure() {
	n.width = 0
	for _, name := range n.names {
		n.width = max(n.width, nameWidth(name))
	}
	clear(n.cache)
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
