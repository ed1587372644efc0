package vtemu

import (
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
)

// renderRow writes one row of w cells as plain text and as text with SGR
// sequences, and returns the columns they take. Blanks at the end of the
// row that a terminal would draw in the default colours are left out of
// both. The continuation cell of a wide character is skipped, so the
// character fills its two columns. Hyperlinks are dropped: a pane shows
// SGR and nothing else.
func renderRow(plain, styled *strings.Builder, cell func(x int) *uv.Cell, w int) int {
	end := w
	for end > 0 {
		c := cell(end - 1)
		if c == nil || c.IsZero() || (c.Content == " " && c.Style.IsZero()) {
			end--
			continue
		}
		break
	}
	var pen uv.Style
	cols := 0
	for x := 0; x < end; x++ {
		c := cell(x)
		if c == nil || c.IsZero() {
			continue // the right half of a wide character
		}
		text := c.Content
		if text == "" {
			text = " "
		}
		cols += max(c.Width, 1)
		if !c.Style.Equal(&pen) {
			if !pen.IsZero() {
				styled.WriteString("\x1b[m")
			}
			if !c.Style.IsZero() {
				styled.WriteString(c.Style.String())
			}
			pen = c.Style
		}
		plain.WriteString(text)
		styled.WriteString(text)
	}
	if !pen.IsZero() {
		styled.WriteString("\x1b[m")
	}
	return cols
}
