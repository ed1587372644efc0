package ui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// The NAME cell leaves room for the origin mark as the table counts
// widths: an origin holding a soft hyphen (0 cells to x/ansi, 1 on
// screen) still ends the name where the cell ends, with the whole mark.
func TestTableNameCountsTheOriginMarkAsDrawn(t *testing.T) {
	info := jobs.Info{Name: "build-server", Origin: "co\u00adop"}
	got := tableName(info, 14)
	require.Equal(t, "build… [co\u00adop]", got)
	require.Equal(t, 14, textWidth(got))
	require.Equal(t, 12+8, tableNameWidth(info))
}
