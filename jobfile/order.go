package jobfile

import (
	"fmt"
	"slices"
	"strings"
)

// checkDependencies reports depends_on entries naming no job and cycles,
// and returns the start order (nil when there were problems).
func (y *yamlFile) checkDependencies() []string {
	names := make([]string, len(y.plan.Jobs))
	for i, j := range y.plan.Jobs {
		names[i] = j.Name
	}
	graph := map[string][]string{}
	for _, job := range names {
		for _, d := range y.deps[job] {
			if !slices.Contains(names, d.name) {
				hint := ""
				if best := closest(d.name, names); best != "" {
					hint = fmt.Sprintf(" (did you mean %q?)", best)
				}
				y.errorf(d.key, "%s: no job is named %q%s", d.path, d.name, hint)
				continue
			}
			graph[job] = append(graph[job], d.name)
		}
	}
	for _, cycle := range findCycles(names, graph) {
		cycle = y.closedLast(cycle)
		for _, d := range y.deps[cycle[0]] {
			if d.name == cycle[1] {
				y.errorf(d.key, "%s: dependency cycle: %s", d.path, strings.Join(cycle, " -> "))
			}
		}
	}
	if len(y.errs) > 0 {
		return nil
	}
	return startOrder(names, graph)
}

// closedLast rotates cycle (its first job repeated at its end) to start
// at the edge from the latest of the merged files: the one that closed it,
// where its message points. From one file it is returned as it is.
func (y *yamlFile) closedLast(cycle []string) []string {
	if len(y.plan.Files) < 2 {
		return cycle
	}
	best, bestRank := 0, -1
	for i := range len(cycle) - 1 {
		for _, d := range y.deps[cycle[i]] {
			if d.name != cycle[i+1] {
				continue
			}
			if r := slices.Index(y.plan.Files, y.origins.fileOf(d.key)); r > bestRank {
				best, bestRank = i, r
			}
		}
	}
	jobs := cycle[:len(cycle)-1]
	rotated := append(slices.Clone(jobs[best:]), jobs[:best]...)
	return append(rotated, rotated[0])
}

// startOrder lists names so that every one comes after those it depends
// on; among those free to go, the first in file order goes first. names
// must hold no cycle.
func startOrder(names []string, deps map[string][]string) []string {
	placed := make(map[string]bool, len(names))
	order := make([]string, 0, len(names))
	for len(order) < len(names) {
		progress := false
		for _, n := range names {
			if placed[n] || !allPlaced(deps[n], placed) {
				continue
			}
			placed[n] = true
			order = append(order, n)
			progress = true
			break
		}
		if !progress {
			return order // a cycle: checked for before, so never here
		}
	}
	return order
}

func allPlaced(deps []string, placed map[string]bool) bool {
	for _, d := range deps {
		if !placed[d] {
			return false
		}
	}
	return true
}

// findCycles returns each dependency cycle found by a depth-first walk in
// file order, once, as names from its earliest job in file order back to
// that job: [a b c a].
func findCycles(names []string, deps map[string][]string) [][]string {
	const (
		unvisited = iota
		onPath
		done
	)
	state := make(map[string]int, len(names))
	rank := make(map[string]int, len(names))
	for i, n := range names {
		rank[n] = i
	}
	var cycles [][]string
	seen := map[string]bool{}
	var path []string
	var visit func(n string)
	visit = func(n string) {
		state[n] = onPath
		path = append(path, n)
		for _, d := range deps[n] {
			switch state[d] {
			case unvisited:
				visit(d)
			case onPath:
				cycle := rotateToFirst(path[slices.Index(path, d):], rank)
				if key := strings.Join(cycle, " "); !seen[key] {
					seen[key] = true
					cycles = append(cycles, append(cycle, cycle[0]))
				}
			}
		}
		path = path[:len(path)-1]
		state[n] = done
	}
	for _, n := range names {
		if state[n] == unvisited {
			visit(n)
		}
	}
	return cycles
}

// rotateToFirst returns a copy of the cycle starting at its job that comes
// first in the file.
func rotateToFirst(cycle []string, rank map[string]int) []string {
	start := 0
	for i, n := range cycle {
		if rank[n] < rank[cycle[start]] {
			start = i
		}
	}
	return append(slices.Clone(cycle[start:]), cycle[:start]...)
}
