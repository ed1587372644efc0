package jobfile

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// A process's extends: names another process of the same (merged) file
// whose settings it inherits, as process-compose's process-level extends
// (docker-compose's extends.service): the named process, itself resolved
// first, is merged under the extending one with the rules of an override
// file (pcmerge.go): a scalar the extending process sets wins, lists are
// appended to, environment and depends_on are merged by name. As in
// process-compose it is resolved after the files are merged and before
// anything else is read, so the settings inherited are the ones written;
// a process extending itself, an unknown one or a cycle is refused.

// extendsState is where a process is in resolving its extends.
type extendsState int

const (
	extendsUnvisited extendsState = iota
	extendsInProgress
	extendsResolved
)

// resolveProcessExtends is entries (the processes: mapping's) with each
// process that has an extends: replaced by the process it inherits,
// merged with its own fields.
func (p *pcFile) resolveProcessExtends(entries []entry) []entry {
	if !slices.ContainsFunc(entries, func(pe entry) bool { _, ok := p.extendsOf(pe); return ok }) {
		return entries
	}
	index := make(map[string]int, len(entries))
	for i, pe := range entries {
		index[pe.name] = i
	}
	out := slices.Clone(entries)
	state := make([]extendsState, len(entries))
	m := &pcMerger{p: p, origins: p.origins}
	var resolve func(i int, trail []string) bool
	resolve = func(i int, trail []string) (ok bool) {
		pe := entries[i]
		defer func() {
			if !ok {
				if p.badExtends == nil {
					p.badExtends = make(map[string]bool)
				}
				p.badExtends[pe.name] = true
			}
		}()
		switch state[i] {
		case extendsResolved:
			return true
		case extendsInProgress:
			p.errorf(pe.key, "processes.%s.extends: a cycle: %s", trail[0], strings.Join(append(trail, pe.name), " extends "))
			return false
		}
		ext, ok := p.extendsOf(pe)
		if !ok {
			state[i] = extendsResolved
			return true
		}
		parent, ok := p.text(ext)
		if !ok {
			return false
		}
		parent = strings.TrimSpace(parent)
		j, found := index[parent]
		switch {
		case parent == "":
			// as ${UNSET} gives: process-compose extends nothing then
			out[i].value = withoutKey(p.materialize(pe.value, pe.path, 0), "extends")
			state[i] = extendsResolved
			return true
		case parent == pe.name:
			p.errorf(ext.value, "%s: process %s extends itself", ext.path, pe.name)
			return false
		case !found:
			p.errorf(ext.value, "%s: no process is named %q%s (extends names another process of the file, whose settings this one inherits)", ext.path, parent, suggestName(parent, index))
			return false
		}
		state[i] = extendsInProgress
		if !resolve(j, append(trail, pe.name)) {
			state[i] = extendsResolved // its error is said once
			return false
		}
		base := withoutKey(p.materialize(out[j].value, entries[j].path, 0), "extends")
		own := withoutKey(p.materialize(pe.value, pe.path, 0), "extends")
		m.earlier = "the process it extends, " + parent + ","
		out[i].value = m.merge(base, own, []string{"processes", pe.name})
		state[i] = extendsResolved
		return true
	}
	for i := range entries {
		resolve(i, nil)
	}
	return out
}

// extendsOf is a process's extends: entry, when it has one.
func (p *pcFile) extendsOf(pe entry) (entry, bool) {
	if _, isMap := pe.value.(*ast.MappingNode); !isMap {
		return entry{}, false
	}
	for _, e := range p.mappingEntries(pe.value, pe.path, 0) {
		if e.name == "extends" && e.value != nil && !isNull(e.value) {
			return e, true
		}
	}
	return entry{}, false
}

// withoutKey is a materialized mapping without its entry named key.
func withoutKey(n ast.Node, key string) ast.Node {
	mn, ok := n.(*ast.MappingNode)
	if !ok {
		return n
	}
	out := *mn
	out.Values = slices.DeleteFunc(slices.Clone(mn.Values), func(mv *ast.MappingValueNode) bool {
		name, _ := keyText(mv.Key)
		return name == key
	})
	return &out
}

// suggestName is ` (did you mean "NAME"?)` for the process name closest
// to name, "" when none is close.
func suggestName(name string, index map[string]int) string {
	names := slices.Sorted(maps.Keys(index))
	if best := closest(name, names); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}
