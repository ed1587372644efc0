package ui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/keymap"
)

// panel covers the table, the panes and any prompt until it is closed
// (esc, q, ?): the full help, or every problem of a job file that could
// not be reloaded. Its first row is its title; its lines scroll when they
// do not fit. The status bar and the help bar stay.
type panel struct {
	km    *keymap.KeyMap
	pal   *palette
	title string
	// layout lays the panel's lines out at a width.
	layout func(width int) []string

	width, height int
	lines         []string // laid out at width
	offset        int      // the first line shown
}

func newPanel(km *keymap.KeyMap, pal *palette, title string, layout func(width int) []string) *panel {
	return &panel{km: km, pal: pal, title: title, layout: layout}
}

// SetSize lays the panel out again when its size changed; height counts
// the title row.
func (p *panel) SetSize(width, height int) {
	if width != p.width || p.lines == nil {
		p.lines = p.layout(width)
	}
	p.width, p.height = width, max(height, 0)
	p.scrollBy(0)
}

// body is the rows under the title.
func (p *panel) body() int { return max(p.height-1, 0) }

func (p *panel) scrollBy(n int) {
	p.offset = min(max(p.offset+n, 0), max(len(p.lines)-p.body(), 0))
}

// Update scrolls the panel on the pane's scroll keys, and with the
// wheel as a pane scrolls.
func (p *panel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if mm, ok := msg.(tea.MouseMsg); ok && mm.Action == tea.MouseActionPress {
		switch mm.Button {
		case tea.MouseButtonWheelUp:
			p.scrollBy(-wheelRows)
		case tea.MouseButtonWheelDown:
			p.scrollBy(wheelRows)
		}
		return p, nil
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	half := max(p.body()/2, 1)
	switch {
	case key.Matches(k, p.km.LineUp):
		p.scrollBy(-1)
	case key.Matches(k, p.km.LineDown):
		p.scrollBy(1)
	case key.Matches(k, p.km.HalfPageUp):
		p.scrollBy(-half)
	case key.Matches(k, p.km.HalfPageDown):
		p.scrollBy(half)
	case key.Matches(k, p.km.Top):
		p.offset = 0
	case key.Matches(k, p.km.Bottom):
		p.scrollBy(len(p.lines))
	}
	return p, nil
}

// Init implements tea.Model.
func (p *panel) Init() tea.Cmd { return nil }

// scrolls reports whether the lines do not all fit.
func (p *panel) scrolls() bool { return len(p.lines) > p.body() }

// UpdateKeys enables the panel's keys.
func (p *panel) UpdateKeys(km *keymap.KeyMap) {
	km.ClosePanel.SetEnabled(true)
	for _, b := range []*key.Binding{&km.LineUp, &km.LineDown, &km.HalfPageUp, &km.HalfPageDown, &km.Top, &km.Bottom} {
		b.SetEnabled(p.scrolls())
	}
}

// View draws the title and the lines shown: exactly height rows, each
// cut to the width.
func (p *panel) View() string {
	if p.height <= 0 || p.width <= 0 {
		return ""
	}
	var b strings.Builder
	right := ""
	if p.scrolls() {
		right = " " + strconv.Itoa(p.offset+1) + "–" + strconv.Itoa(min(p.offset+p.body(), len(p.lines))) + " of " + strconv.Itoa(len(p.lines))
	}
	if textWidth(right) >= p.width {
		right = ""
	}
	b.WriteString(p.pal.titleFocused.Wrap(fit(p.title, p.width-textWidth(right), false)))
	b.WriteString(p.pal.muted.Wrap(right))
	for i := 0; i < p.body(); i++ {
		b.WriteByte('\n')
		if j := p.offset + i; j < len(p.lines) {
			b.WriteString(cut(p.lines[j], p.width))
		}
	}
	return b.String()
}

// openPanel covers the screen with a panel, sized at once: its keys
// are enabled before the next resize.
func (m *Model) openPanel(p *panel) {
	f := m.screen.frame
	p.SetSize(m.width, f.table+f.pane+f.prompt)
	m.panel = p
}

// handlePanelKey closes the panel or scrolls it; ctrl+c closes it and
// asks to quit, as it would without the panel.
func (m *Model) handlePanelKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.km.ClosePanel):
		m.panel = nil
	case slices.Contains(m.km.Quit.Keys(), k.String()): // ctrl+c; q closed it

		m.panel = nil
		return m.requestQuit()
	default:
		m.panel.Update(k)
	}
	return nil
}

// panelScreen draws the panel where the table, the panes and a prompt
// would be, then the status bar and the help.
func (m *Model) panelScreen() string {
	f := m.screen.frame
	parts := make([]string, 0, 3)
	if f.table+f.pane+f.prompt > 0 {
		parts = append(parts, m.panel.View())
	}
	parts = append(parts, m.statusView())
	if f.help > 0 {
		parts = append(parts, firstLines(m.helpView(), f.help))
	}
	return strings.Join(parts, "\n")
}
