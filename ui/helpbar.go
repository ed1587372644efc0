package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// helpBar keeps the help bar as last drawn and what it was drawn from:
// the layout asks for its height on every message and View draws it on
// every frame, while what it shows changes only with the keys that work
// or the width, so it is laid out again only then.
type helpBar struct {
	key  string // the width, short or full, and each binding's help
	text string
	// lines is how many lines text has.
	lines int
	sig   []byte // scratch for the key
}

// helpView is the help bar, short or full. Its lines are cut to the
// width: bubbles/help adds an item that does not fit when not even its
// ellipsis fits.
func (m *Model) helpView() string {
	b := &m.helpBar
	sig := strconv.AppendInt(b.sig[:0], int64(m.width), 10)
	sig = append(sig, 'x')
	sig = strconv.AppendInt(sig, int64(m.help.Width), 10)
	if m.help.ShowAll {
		sig = append(sig, 'F')
	}
	// Every binding, not only those the bar lists: the same for the short
	// and the full bar, and no copy of the bindings as ShortHelp makes.
	sig = appendBindingsSig(sig, m.km.All())
	b.sig = sig
	if string(sig) == b.key && b.lines > 0 {
		return b.text
	}
	ls := strings.Split(m.help.View(m.km), "\n")
	for i, l := range ls {
		ls[i] = truncateText(l, m.width, "")
	}
	b.key, b.text, b.lines = string(sig), strings.Join(ls, "\n"), len(ls)
	return b.text
}

// appendBindingsSig appends what the help bar may show of bs: which are
// enabled, and their keys and descriptions.
func appendBindingsSig(sig []byte, bs []*key.Binding) []byte {
	for _, k := range bs {
		if !k.Enabled() {
			sig = append(sig, '-')
			continue
		}
		h := k.Help()
		sig = append(sig, '+')
		sig = append(sig, h.Key...)
		sig = append(sig, 0)
		sig = append(sig, h.Desc...)
		sig = append(sig, 0)
	}
	return sig
}

func (m *Model) helpLines() int {
	m.helpView()
	return m.helpBar.lines
}
