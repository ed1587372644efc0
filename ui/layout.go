package ui

// frame is how the screen's rows are shared out, top to bottom.
type frame struct {
	table, pane, prompt, status, help int
}

// frameSpec is what the screen must hold.
type frameSpec struct {
	height    int
	jobCount  int  // rows the table would like (one per job shown)
	helpLines int  // the help bar's height
	prompt    int  // rows of an open prompt
	zoom      bool // the output alone, no table
	split     bool // several panes share the output area
}

// Shares of the rows left for the table and the output that the table
// may take, so the output keeps most of the screen; a split view leaves
// it less.
const (
	tableShare      = 0.4
	tableShareSplit = 0.25
)

// layoutFrame shares the rows between the job table (header and one row
// per job), the output area (pane headers and bodies), the prompt when one
// is open, the status bar and the help. The parts always add up to the
// height exactly. On very short terminals the help is cut first, then the
// table shrinks to its header and a row, then the output.
func layoutFrame(s frameSpec) frame {
	var f frame
	if s.height <= 0 {
		return f
	}
	f.status = 1
	rest := s.height - 1
	if s.prompt > 0 {
		f.prompt = min(s.prompt, rest)
		rest -= f.prompt
	}
	minPanes := 3 // a table header and row, a pane header
	if s.zoom {
		minPanes = 2 // pane header and one row
	}
	f.help = min(s.helpLines, max(rest-minPanes, min(rest, 1)))
	f.help = max(f.help, 0)
	rest -= f.help
	if s.zoom {
		f.pane = rest
		return f
	}
	share := tableShare
	if s.split {
		share = tableShareSplit
	}
	want := 1 + max(s.jobCount, 1)
	limit := max(int(float64(rest)*share), 2)
	f.table = min(want, limit, rest)
	f.pane = rest - f.table
	return f
}

// rect is an area of the screen, in cells.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// The smallest box a pane of a split view keeps: its border, a header of
// paneMinWidth cells (in the top border) and paneMinRows rows of output.
// Two panes go side by side from sideBySideWidth cells, one above the
// other below it.
const (
	paneMinWidth    = 20
	paneMinRows     = 2
	boxMinWidth     = paneMinWidth + 2
	boxMinHeight    = paneMinRows + 2
	sideBySideWidth = 100
)

// layoutPanes places n boxed panes (1 to 4) in an area of w × h cells:
// 2 as two columns (two rows when narrower than sideBySideWidth, or when
// columns do not fit), 3 and 4 in a 2×2 grid (the third spanning the
// bottom row when there are three). When the panes would be smaller than
// the minimum box, fewer are placed; it returns at least one.
func layoutPanes(w, h, n int) []rect {
	for ; n > 1; n-- {
		for _, grid := range arrangements(w, n) {
			rects := grid(w, h)
			if fitsMinimum(rects) {
				return rects
			}
		}
	}
	return []rect{{0, 0, w, h}}
}

// arrangements are the ways to place n panes, the preferred first.
func arrangements(w, n int) []func(w, h int) []rect {
	switch n {
	case 2:
		if w >= sideBySideWidth {
			return []func(w, h int) []rect{columns, rows}
		}
		return []func(w, h int) []rect{rows, columns}
	case 3:
		return []func(w, h int) []rect{grid3}
	default:
		return []func(w, h int) []rect{grid4}
	}
}

// halves splits n cells in two: the first half, the second.
func halves(n int) (int, int) { return n / 2, n - n/2 }

func columns(w, h int) []rect {
	a, b := halves(w)
	return []rect{{0, 0, a, h}, {a, 0, b, h}}
}

func rows(w, h int) []rect {
	a, b := halves(h)
	return []rect{{0, 0, w, a}, {0, a, w, b}}
}

func grid3(w, h int) []rect {
	a, b := halves(w)
	top, bottom := halves(h)
	return []rect{{0, 0, a, top}, {a, 0, b, top}, {0, top, w, bottom}}
}

func grid4(w, h int) []rect {
	a, b := halves(w)
	top, bottom := halves(h)
	return []rect{{0, 0, a, top}, {a, 0, b, top}, {0, top, a, bottom}, {a, top, b, bottom}}
}

func fitsMinimum(rects []rect) bool {
	for _, r := range rects {
		if r.w < boxMinWidth || r.h < boxMinHeight {
			return false
		}
	}
	return true
}
