package workspace

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFileErrorCountsTheOtherProblems(t *testing.T) {
	cases := map[int]string{
		1: "cannot reload: p1; nothing was changed",
		2: "cannot reload: p1 (and 1 more problem); nothing was changed",
		3: "cannot reload: p1 (and 2 more problems); nothing was changed",
	}
	for n, want := range cases {
		e := &FileError{Path: "f", Err: errors.New("bad")}
		for i := 1; i <= n; i++ {
			e.Problems = append(e.Problems, "p"+string(rune('0'+i)))
		}
		assert.Equal(t, want, e.Error())
	}
}
