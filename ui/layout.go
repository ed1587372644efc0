package ui

// frame is how the screen's rows are shared out, top to bottom.
type frame struct {
	table, pane, prompt, status, help int
}

// tableShare caps the job table at this fraction of the rows left for
// the two panes, so the output keeps most of the screen.
const tableShare = 0.4

// layoutFrame shares height rows between the job table (header and one row
// per job), the output pane (header and body), the add prompt when open,
// the status bar and the help (helpLines tall). The parts always add up
// to height exactly. On very short terminals the help is cut first, then
// the table shrinks to its header and a row, then the pane.
func layoutFrame(height, jobCount, helpLines int, prompt, zoom bool) frame {
	var f frame
	if height <= 0 {
		return f
	}
	f.status = 1
	rest := height - 1
	if prompt {
		f.prompt = min(promptHeight, rest)
		rest -= f.prompt
	}
	minPanes := 3 // a table header and row, a pane header
	if zoom {
		minPanes = 2 // pane header and one row
	}
	f.help = min(helpLines, max(rest-minPanes, min(rest, 1)))
	f.help = max(f.help, 0)
	rest -= f.help
	if zoom {
		f.pane = rest
		return f
	}
	want := 1 + max(jobCount, 1)
	limit := max(int(float64(rest)*tableShare), 2)
	f.table = min(want, limit, rest)
	f.pane = rest - f.table
	return f
}
