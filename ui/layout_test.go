package ui

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLayoutFrameAddsUp(t *testing.T) {
	for h := 0; h <= 80; h++ {
		for _, jobs := range []int{0, 1, 5, 1000} {
			for _, help := range []int{1, 6} {
				for _, prompt := range []bool{false, true} {
					for _, zoom := range []bool{false, true} {
						promptLines := 0
						if prompt {
							promptLines = promptHeight
						}
						f := layoutFrame(frameSpec{height: h, jobCount: jobs, helpLines: help, prompt: promptLines, zoom: zoom})
						sum := f.table + f.pane + f.prompt + f.status + f.help
						require.Equal(t, h, sum, "h=%d jobs=%d help=%d prompt=%v zoom=%v: %+v", h, jobs, help, prompt, zoom, f)
						for _, part := range []int{f.table, f.pane, f.prompt, f.status, f.help} {
							require.GreaterOrEqual(t, part, 0)
						}
						if zoom {
							require.Zero(t, f.table)
						}
						if h >= 15 {
							require.GreaterOrEqual(t, f.pane, 3, "the output keeps room at h=%d: %+v", h, f)
							require.Equal(t, 1, f.status)
							if !zoom {
								require.GreaterOrEqual(t, f.table, 2)
							}
						}
					}
				}
			}
		}
	}
}

func TestLayoutFrameTableGrowsWithJobs(t *testing.T) {
	f := layoutFrame(frameSpec{height: 45, jobCount: 3, helpLines: 1})
	require.Equal(t, 4, f.table, "header and three rows")
	require.Equal(t, 45-4-2, f.pane)
	f = layoutFrame(frameSpec{height: 45, jobCount: 1000, helpLines: 1})
	require.Equal(t, 17, f.table, "40% of 43 rows")
}
