package jobfile

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStartOrder(t *testing.T) {
	tests := []struct {
		name  string
		names []string
		deps  map[string][]string
		want  []string
	}{
		{"no dependencies keep file order", []string{"c", "a", "b"}, nil, []string{"c", "a", "b"}},
		{"a dependency goes first", []string{"web", "db"}, map[string][]string{"web": {"db"}}, []string{"db", "web"}},
		{"free jobs go in file order", []string{"web", "lint", "db", "cache"},
			map[string][]string{"web": {"db", "cache"}}, []string{"lint", "db", "cache", "web"}},
		{"a chain", []string{"c", "b", "a"}, map[string][]string{"c": {"b"}, "b": {"a"}}, []string{"a", "b", "c"}},
		{"a diamond", []string{"e2e", "api", "web", "lib"},
			map[string][]string{"e2e": {"api", "web"}, "api": {"lib"}, "web": {"lib"}}, []string{"lib", "api", "web", "e2e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, startOrder(tt.names, tt.deps))
		})
	}
}

func TestFindCycles(t *testing.T) {
	tests := []struct {
		name  string
		names []string
		deps  map[string][]string
		want  [][]string
	}{
		{"none", []string{"a", "b"}, map[string][]string{"a": {"b"}}, nil},
		{"self", []string{"a"}, map[string][]string{"a": {"a"}}, [][]string{{"a", "a"}}},
		{"found from its middle, shown from its first job",
			[]string{"x", "a", "b", "c"}, map[string][]string{"x": {"b"}, "a": {"b"}, "b": {"c"}, "c": {"a"}},
			[][]string{{"a", "b", "c", "a"}}},
		{"two cycles", []string{"a", "b", "c", "d"}, map[string][]string{"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}},
			[][]string{{"a", "b", "a"}, {"c", "d", "c"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, findCycles(tt.names, tt.deps))
		})
	}
}
