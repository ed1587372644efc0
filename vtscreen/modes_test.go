package vtscreen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Sequence sets what a Detector reads back.
func TestModesSequenceRoundTrips(t *testing.T) {
	for _, m := range []InputModes{
		{},
		{AppCursor: true},
		{BracketedPaste: true, Mouse: MouseX10},
		{Mouse: MouseNormal, MouseSGR: true},
		{AppCursor: true, BracketedPaste: true, Mouse: MouseButton, MouseSGR: true},
		{Mouse: MouseAny},
	} {
		var d Detector
		b := m.Sequence()
		for len(b) > 0 {
			n, _ := d.Next(b)
			b = b[n:]
		}
		assert.Equal(t, m, d.Modes())
	}
}
