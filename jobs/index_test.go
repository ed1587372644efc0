package jobs

import (
	"container/heap"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

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

// oldEndedBefore is the order of ends retention went by before: by time
// (none first), then by ID.
func oldEndedBefore(a *time.Time, aID ID, b *time.Time, bID ID) bool {
	switch {
	case a == nil || b == nil:
		return a == nil && b != nil
	case !a.Equal(*b):
		return a.Before(*b)
	}
	return aID < bID
}

// oldDropOrder is the finished jobs retention drops, in order, as it
// chose them before the finished jobs were kept in end order: by a look
// at every finished job for the one that ended first, again for each.
func oldDropOrder(finished []Info, keep int) []ID {
	var dropped []ID
	for over := len(finished) - keep; over > 0; over-- {
		oldest := 0
		for i, f := range finished {
			if oldEndedBefore(f.Ended, f.ID, finished[oldest].Ended, finished[oldest].ID) {
				oldest = i
			}
		}
		dropped = append(dropped, finished[oldest].ID)
		finished = slices.Delete(finished, oldest, oldest+1)
	}
	return dropped
}

// Over random starts, ends, restarts and removals, past KeepFinished the
// manager drops the finished jobs a look at every finished job dropped:
// the ones that ended first; a restarted job is no longer finished, a
// removed one is gone.
func TestRetentionAgreesWithALookAtEveryJob(t *testing.T) {
	const keep = 5
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 17))
		m := newManager(t, Options{KeepFinished: keep, MaxRunning: 1})
		blocker := start(t, m, Spec{Command: "exec sleep 1000"}) // holds the one slot: the rest wait queued
		type model struct {
			finished bool
			ended    *time.Time
		}
		jobs := map[ID]*model{blocker.ID: {}}
		pick := func(ok func(*model) bool) (ID, bool) {
			var ids []ID
			for id, j := range jobs {
				if id != blocker.ID && ok(j) {
					ids = append(ids, id)
				}
			}
			if len(ids) == 0 {
				return 0, false
			}
			slices.Sort(ids)
			return ids[rng.IntN(len(ids))], true
		}
		for op := range 200 {
			switch r := rng.IntN(100); {
			case r < 30:
				info, err := m.StartSoon(Spec{Command: "true"})
				require.NoError(t, err)
				jobs[info.ID] = &model{}
			case r < 40:
				info, err := m.Add(Spec{Command: "true"})
				require.NoError(t, err)
				jobs[info.ID] = &model{}
			case r < 50: // fails at once: what it depends on is no job's
				info, err := m.StartSoon(Spec{Command: "true", DependsOn: map[string]Condition{"nosuch": CondSucceeded}})
				require.NoError(t, err)
				require.Equal(t, StateError, info.State)
				jobs[info.ID] = &model{finished: true, ended: info.Ended}
			case r < 75:
				if id, ok := pick(func(j *model) bool { return !j.finished }); ok {
					info, err := m.Get(id)
					require.NoError(t, err)
					if info.State == StateCreated {
						continue
					}
					require.NoError(t, m.Kill(id)) // queued: it ends now, without a run
					info, err = m.Get(id)
					require.NoError(t, err)
					require.Equal(t, StateKilled, info.State)
					jobs[id].finished, jobs[id].ended = true, info.Ended
				}
			case r < 88:
				if id, ok := pick(func(*model) bool { return true }); ok {
					info, err := m.Restart(id)
					require.NoError(t, err)
					// Queued; or, depending on no job, failed again at once.
					jobs[id].finished, jobs[id].ended = info.State == StateError, info.Ended
				}
			default:
				if id, ok := pick(func(j *model) bool { return j.finished }); ok {
					require.NoError(t, m.Remove(id))
					delete(jobs, id)
				}
			}
			var finished []Info
			for id, j := range jobs {
				if j.finished {
					finished = append(finished, Info{ID: id, Ended: j.ended})
				}
			}
			slices.SortFunc(finished, func(a, b Info) int { return int(a.ID - b.ID) })
			for _, id := range oldDropOrder(finished, keep) {
				delete(jobs, id)
			}
			var want, got []ID
			for id := range jobs {
				want = append(want, id)
			}
			slices.Sort(want)
			for _, info := range m.List() {
				got = append(got, info.ID)
			}
			require.Equal(t, want, got, "seed %d op %d", seed, op)
		}
	}
}

// The finished jobs' heap gives the one that ended first, ties by ID, as
// a look at every one does, however they come and go (ends that tie
// included).
func TestFinishedJobsHeapTopIsTheOldest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 18))
	base := time.Now()
	ends := []*time.Time{nil}
	for i := range 3 {
		at := base.Add(time.Duration(i) * time.Second)
		ends = append(ends, &at, &at) // the same time, two pointers
	}
	var f finishedJobs
	var all []*job
	for id := range ID(400) {
		all = append(all, &job{id: id + 1})
	}
	in := func() []*job { return slices.Clone([]*job(f)) }
	for op := range 3000 {
		j := all[rng.IntN(len(all))]
		switch {
		case j.finishedAt == 0:
			j.ended = ends[rng.IntN(len(ends))]
			j.finishedEnd = j.ended
			heap.Push(&f, j)
		case rng.IntN(3) == 0:
			j.ended = ends[rng.IntN(len(ends))]
			j.finishedEnd = j.ended
			heap.Fix(&f, j.finishedAt-1)
		default:
			heap.Remove(&f, j.finishedAt-1)
		}
		js := in()
		for i, k := range js {
			require.Equal(t, i+1, k.finishedAt)
		}
		if len(js) == 0 {
			continue
		}
		oldest := js[0]
		for _, k := range js {
			if oldEndedBefore(k.ended, k.id, oldest.ended, oldest.id) {
				oldest = k
			}
		}
		require.Same(t, oldest, f[0], "op %d", op)
	}
}
