package jobs

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// oldUniqueName is how a name was made unique before the name index, by a
// look at every job's name: the reference the index must agree with.
func oldUniqueName(names []string, base string) string {
	taken := make([]bool, len(names)+2)
	prefix := base + "-"
	for _, name := range names {
		if name == base {
			taken[1] = true
			continue
		}
		if len(name) <= len(prefix) || name[:len(prefix)] != prefix || name[len(prefix)] == '0' {
			continue
		}
		k := 0
		for _, c := range name[len(prefix):] {
			if c < '0' || c > '9' || k >= len(taken) {
				k = 0
				break
			}
			k = k*10 + int(c-'0')
		}
		if k >= 2 && k < len(taken) {
			taken[k] = true
		}
	}
	if !taken[1] {
		return base
	}
	for k := 2; ; k++ {
		if !taken[k] {
			return base + "-" + strconv.Itoa(k)
		}
	}
}

// oldFindByName is how a job was found by name before the index: the
// newest other than self, by a look at every job.
func oldFindByName(infos []Info, name string, self ID) ID {
	for i := len(infos) - 1; i >= 0; i-- {
		if infos[i].ID != self && infos[i].Name == name {
			return infos[i].ID
		}
	}
	return 0
}

// Over random adds (named and not), renames and removals of jobs whose
// names collide, every unnamed job gets the name a look at every job gave
// it (the smallest free suffix; names like sleep-02 or sleep-x do not
// count; freed names are used again), and a job found by name is the one
// a look at every job found.
func TestUniqueNamesAgreeWithALookAtEveryJob(t *testing.T) {
	commands := []string{"sleep 1", "true", "./sleep-2", "./x-2", "exec sleep 5"}
	given := []string{"sleep", "sleep-2", "sleep-3", "sleep-5", "sleep-02", "sleep-x", "sleep-", "sleep-1",
		"sleep-2-2", "sleep-2-3", "true-2", "true-3", "x-2", "x-2-2", "sleep-999999999", "sleep-1000000000",
		"sleep-99999999999999999999", "other"}
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 16))
		m := newManager(t, Options{KeepFinished: -1})
		for op := range 250 {
			infos := m.List()
			names := make([]string, len(infos))
			for i, info := range infos {
				names[i] = info.Name
			}
			switch r := rng.IntN(100); {
			case r < 40 || len(infos) == 0:
				spec := Spec{Command: commands[rng.IntN(len(commands))]}
				want := oldUniqueName(names, defaultName(spec))
				info, err := m.Add(spec)
				require.NoError(t, err)
				require.Equal(t, want, info.Name, "seed %d op %d: %q among %q", seed, op, spec.Command, names)
			case r < 60:
				_, err := m.Add(Spec{Name: given[rng.IntN(len(given))], Command: "true"})
				require.NoError(t, err)
			case r < 75:
				spec := Spec{Command: "true"} // no name: it keeps its own
				if rng.IntN(3) > 0 {
					spec.Name = given[rng.IntN(len(given))]
				}
				info, err := m.Replace(infos[rng.IntN(len(infos))].ID, spec)
				require.NoError(t, err)
				if spec.Name != "" {
					require.Equal(t, spec.Name, info.Name)
				}
			default:
				require.NoError(t, m.Remove(infos[rng.IntN(len(infos))].ID))
			}
			infos = m.List()
			m.mu.Lock()
			for _, name := range append(given, "true", "x-2") {
				self := ID(0)
				if len(infos) > 0 && rng.IntN(2) == 0 {
					self = infos[rng.IntN(len(infos))].ID
				}
				var got ID
				if d := m.findByNameLocked(name, m.jobs[self]); d != nil {
					got = d.id
				}
				require.Equal(t, oldFindByName(infos, name, self), got, "seed %d op %d: %q", seed, op, name)
			}
			m.mu.Unlock()
		}
	}
}
