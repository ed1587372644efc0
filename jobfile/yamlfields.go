package jobfile

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// fields dispatches a mapping's entries to one reader per known key and
// reports unknown keys, suggesting the likely one.
type fields map[string]func(entry)

func (r *nodeReader) readFields(path string, entries []entry, fs fields) {
	for _, e := range entries {
		if read, ok := fs[e.name]; ok {
			if e.value != nil {
				read(e)
			}
			continue
		}
		r.errorf(e.key, "%s: unknown key %q%s", nonEmpty(path, "top level"), e.name, suggest(e.name, fs))
	}
}

func nonEmpty(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// knownAliases are keys other tools use for what jobtop names differently.
var knownAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"command": "cmd", "working_dir": "cwd", "dir": "cwd", "environment": "env",
		"depends": "depends_on", "readiness_probe": "ready", "readiness": "ready",
		"stop_signal": "stop", "restart_policy": "restart",
	}
})

// misnamesCommand says whether an unknown key is likely meant as cmd or
// argv: another tool's name for it ("command") or a typo of either.
func misnamesCommand(name string) bool {
	return knownAliases()[name] == "cmd" || closest(name, []string{"cmd", "argv"}) != ""
}

// suggest names the known key closest to an unknown one, or lists them.
func suggest(name string, fs fields) string {
	if alias, ok := knownAliases()[name]; ok && fs[alias] != nil {
		return fmt.Sprintf(" (did you mean %q?)", alias)
	}
	keys := make([]string, 0, len(fs))
	for k := range fs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if best := closest(name, keys); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return " (known keys: " + strings.Join(keys, ", ") + ")"
}

// closest returns the candidate that name is most likely a typo of: one
// within a few edits (1 for short names, 2 for longer ones), else one
// whose letters all appear in name in order (cmd in "comand").
func closest(name string, candidates []string) string {
	name = strings.ToLower(name)
	best, bestDist := "", 2
	if len(name) < 5 {
		bestDist = 1
	}
	for _, c := range candidates {
		if d := editDistance(name, c); d <= bestDist {
			best, bestDist = c, d-1
		}
	}
	if best != "" {
		return best
	}
	for _, c := range candidates {
		if len(c) >= 3 && name != "" && c[0] == name[0] && isSubsequence(c, name) {
			return c
		}
	}
	return ""
}

func isSubsequence(short, long string) bool {
	i := 0
	for j := 0; j < len(long) && i < len(short); j++ {
		if long[j] == short[i] {
			i++
		}
	}
	return i == len(short)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
