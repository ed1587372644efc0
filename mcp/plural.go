package mcp

import (
	"fmt"
	"strings"
)

// plural is "1 line", "2 lines", "3 matches": a count with its noun.
func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "ch"):
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// isAre is the verb of n things: "is" for 1, else "are".
func isAre(n uint64) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
