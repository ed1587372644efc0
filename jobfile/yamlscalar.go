package jobfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-yaml/ast"

	"jobtop/jobs"
)

// scalarText is the text of any scalar but null.
func scalarText(n ast.Node) (string, bool) {
	switch t := n.(type) {
	case *ast.StringNode:
		return t.Value, true
	case *ast.LiteralNode:
		if t.Value == nil {
			return "", true
		}
		return t.Value.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return t.GetToken().Value, true
	}
	return "", false
}

// text reads a value written as text (any scalar but null).
func (r *nodeReader) text(e entry) (string, bool) {
	s, ok := scalarText(e.value)
	if !ok && e.value != nil {
		r.errorf(at(e), "%s: want a string, got %s", e.path, kind(e.value))
	}
	return s, ok
}

// bool reads true or false.
func (r *nodeReader) bool(e entry) (v, ok bool) {
	v, ok = boolValue(e.value)
	if !ok {
		r.errorf(at(e), "%s: want true or false, got %s", e.path, kind(e.value))
	}
	return v, ok
}

// boolValue is a true/false field's value, read as yaml.v3 reads one
// into a Go bool (and so process-compose): true and false in their
// YAML 1.2 forms, and YAML 1.1's y, yes, on, n, no and off (lower case,
// capitalised or upper case), quoted or not.
func boolValue(n ast.Node) (v, ok bool) {
	switch t := n.(type) {
	case *ast.BoolNode:
		return t.Value, true
	case *ast.StringNode:
		switch t.Value {
		case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON":
			return true, true
		case "n", "N", "no", "No", "NO", "off", "Off", "OFF":
			return false, true
		}
	}
	return false, false
}

// count reads a whole number that is 0 or more.
func (r *nodeReader) count(e entry) (int, bool) {
	n, ok := e.value.(*ast.IntegerNode)
	if !ok {
		r.errorf(at(e), "%s: want a whole number, got %s", e.path, kind(e.value))
		return 0, false
	}
	v, ok := intValue(n)
	switch {
	case !ok || v > math.MaxInt32:
		r.errorf(e.value, "%s: %s is too large", e.path, n.GetToken().Value)
		return 0, false
	case v < 0:
		r.errorf(e.value, "%s: %d is negative", e.path, v)
		return 0, false
	}
	return int(v), true
}

// intValue is an integer node's value, when it fits an int64.
func intValue(n *ast.IntegerNode) (int64, bool) {
	switch v := n.Value.(type) {
	case int64:
		return v, true
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v), true
		}
	}
	return 0, false
}

// duration reads a Go duration ("500ms", "1m30s") that is 0 or more.
func (r *nodeReader) duration(e entry) (time.Duration, bool) {
	var text string
	switch t := e.value.(type) {
	case *ast.StringNode:
		text = t.Value
	case *ast.IntegerNode:
		if v, ok := intValue(t); ok && v == 0 {
			return 0, true
		}
		r.errorf(e.value, "%s: %s has no unit: write e.g. %ss or %sms", e.path, t.GetToken().Value, t.GetToken().Value, t.GetToken().Value)
		return 0, false
	default:
		r.errorf(at(e), "%s: want a duration like 500ms, 5s or 1m30s, got %s", e.path, kind(e.value))
		return 0, false
	}
	d, err := time.ParseDuration(strings.TrimSpace(text))
	if err != nil && jobs.DurationTooLarge(text) {
		r.errorf(e.value, "%s: %q is too large: at most %s", e.path, text, jobs.MaxDurationText)
		return 0, false
	}
	if err != nil {
		r.errorf(e.value, "%s: %q is not a duration: write e.g. 500ms, 5s or 1m30s", e.path, text)
		return 0, false
	}
	if d < 0 {
		r.errorf(e.value, "%s: %s is negative", e.path, text)
		return 0, false
	}
	return d, true
}

// size reads a byte count: a whole number, or one with a unit (KB, KiB,
// MB, MiB, GB, GiB).
func (r *nodeReader) size(e entry) (int64, bool) {
	if n, ok := e.value.(*ast.IntegerNode); ok {
		if v, ok := intValue(n); ok && v >= 0 {
			return v, true
		}
	}
	text, ok := scalarText(e.value)
	if !ok {
		r.errorf(at(e), "%s: want a size like 64MiB, got %s", e.path, kind(e.value))
		return 0, false
	}
	v, err := ParseSize(text)
	if err != nil {
		r.errorf(e.value, "%s: %v", e.path, err)
		return 0, false
	}
	return v, true
}

var sizeUnits = sync.OnceValue(func() map[string]int64 {
	return map[string]int64{
		"": 1, "B": 1,
		"KB": 1e3, "MB": 1e6, "GB": 1e9,
		"KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30,
	}
})

// ParseSize reads a byte count as a job file writes it: a whole number,
// or one with a unit (B, KB, KiB, MB, MiB, GB, GiB).
func ParseSize(text string) (int64, error) {
	t := strings.TrimSpace(text)
	i := strings.IndexFunc(t, func(c rune) bool { return c < '0' || c > '9' })
	if i < 0 {
		i = len(t)
	}
	unit, ok := sizeUnits()[strings.ToUpper(strings.TrimSpace(t[i:]))]
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if !ok || err != nil {
		return 0, fmt.Errorf("%q is not a size: write e.g. 500KiB, 64MiB or 1GiB", text)
	}
	if n > math.MaxInt64/unit {
		return 0, fmt.Errorf("%q is too large", text)
	}
	return n * unit, nil
}
