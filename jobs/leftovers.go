package jobs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"jobtop/jobs/keeper"
	"jobtop/jobs/proc"
)

const (
	// leftoverGrace is how long StopLeftovers waits after SIGTERM before
	// it sends SIGKILL.
	leftoverGrace = 3 * time.Second
	// leftoverKeeperWait is how long StopLeftovers lets a previous keeper
	// that is still stopping its runs finish before it takes over.
	leftoverKeeperWait = 10 * time.Second
)

// record is what a manager writes to Options.RecordPath.
type record struct {
	// Instance is the manager's process (0 in a record older than it).
	Instance int             `json:"instance,omitempty"`
	Keeper   keeper.Identity `json:"keeper"`
	Mains    []keeper.ProcID `json:"mains"`
	// Queued is how many jobs waited in the queue: should the manager
	// die, they never run.
	Queued int `json:"queued,omitempty"`
}

// UncleanEnd is what the record at a RecordPath says of the manager
// that wrote it, found there by the next one: that manager ended without
// shutting down (a manager that shuts down removes its record).
type UncleanEnd struct {
	// PID is the manager's process; 0 from a record older than that.
	PID int
	// Jobs is how many of its jobs were running (as last recorded).
	Jobs int
	// Queued is how many of its jobs were queued (as last recorded):
	// they never started.
	Queued int
}

// ReadUncleanEnd reads the record at path, before StopLeftovers removes
// it: nil when there is none (the last manager shut down, or none ran a
// job) or it cannot be read.
func ReadUncleanEnd(path string) *UncleanEnd {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var rec record
	if json.Unmarshal(b, &rec) != nil {
		return nil
	}
	return &UncleanEnd{PID: rec.Instance, Jobs: len(rec.Mains), Queued: rec.Queued}
}

// recordKeeper notes that the record needs writing (a new keeper, a run
// started or ended, the queue changed); it is written shortly after,
// off the lock.
func (m *Manager) recordKeeper() {
	if m.opts.RecordPath == "" {
		return
	}
	m.recordMu.Lock()
	defer m.recordMu.Unlock()
	if m.recordTimer == nil {
		m.recordTimer = time.AfterFunc(50*time.Millisecond, m.writeRecord)
	}
}

func (m *Manager) writeRecord() {
	m.recordMu.Lock()
	m.recordTimer = nil
	m.recordMu.Unlock()
	m.keeperMu.Lock()
	rec := record{Instance: os.Getpid(), Keeper: m.keeperID}
	closed := m.keeperClosed
	m.keeperMu.Unlock()
	if closed || rec.Keeper.PID == 0 { // (no keeper yet: the queue changed)
		return
	}
	m.mu.Lock()
	for _, j := range m.byRun {
		if p := j.proc; p != nil && p.spawned && !p.exited {
			rec.Mains = append(rec.Mains, keeper.ProcID{PID: p.pid, Start: p.start})
		}
	}
	rec.Queued = len(m.queue)
	m.mu.Unlock()
	m.recordWriteMu.Lock()
	defer m.recordWriteMu.Unlock()
	writeFileAtomic(m.opts.RecordPath, rec) //nolint:errcheck // best effort: the keeper's own cleanup is the first line
}

// nextSuffix names the file a record is written to before it takes the
// record's name.
const nextSuffix = ".next"

// writeFileAtomic replaces path's content with v as JSON: a reader finds
// the old record or the new one, whole. The new one is written to
// path+nextSuffix and takes path's name; where the system swaps two
// names at once (exchangeFiles), the old file is left under
// path+nextSuffix, and the next record is written into it. A record is
// written every 50 ms while jobs start or end: swapped, that makes and
// frees no inode (on an ext4 without a journal, where many were freed
// recently, making one can take a millisecond). Writers of the same
// path take turns (Manager.recordWriteMu).
func writeFileAtomic(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	next := path + nextSuffix
	f, err := openLog(next, os.O_WRONLY|os.O_CREATE)
	if err != nil {
		return err
	}
	// Written over, then cut to its length: not truncated to nothing
	// first, which makes ext4 write the file out at its close.
	_, err = f.WriteAt(b, 0)
	if err == nil {
		err = f.Truncate(int64(len(b)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && exchangeFiles(next, path) != nil {
		err = os.Rename(next, path) // the first record, or no swap here
	}
	if err != nil {
		os.Remove(next)
	}
	return err
}

// removeRecord removes a record and the file its next one would be
// written to.
func removeRecord(path string) {
	os.Remove(path)
	os.Remove(path + nextSuffix)
}

// closeKeeper ends the keeper once every run has ended, and removes the
// record: nothing is left to stop.
func (m *Manager) closeKeeper() {
	m.keeperMu.Lock()
	m.keeperClosed = true
	kc := m.keeper.Swap(nil)
	m.keeperMu.Unlock()
	m.recordMu.Lock()
	if m.recordTimer != nil {
		m.recordTimer.Stop()
		m.recordTimer = nil
	}
	m.recordMu.Unlock()
	if kc != nil {
		kc.Close() //nolint:errcheck // its exit status says nothing more
	}
	if m.opts.RecordPath != "" {
		m.recordWriteMu.Lock()
		removeRecord(m.opts.RecordPath)
		m.recordWriteMu.Unlock()
	}
}

// killRunsOf kills every process left by the runs of a keeper that died:
// its main processes and their sessions, and whatever is in its cgroup or
// carries its token; then it removes the cgroup.
//
// It looks again until a look finds nothing it has not killed yet: a
// process that forked while the process table was being read leaves a
// child that look missed. (Each look reads the whole table; a keeper
// dies rarely, and a job that forks without end gets maxKillLooks.)
func killRunsOf(id keeper.Identity, mains []keeper.ProcID) {
	defer keeper.RemoveCgroup(id.Cgroup)
	killed := make(map[keeper.ProcID]bool)
	for range maxKillLooks {
		var fresh []proc.Proc
		for _, p := range keeper.Leftovers(id, mains) {
			if id := (keeper.ProcID{PID: p.PID, Start: p.Start}); !killed[id] {
				killed[id] = true
				fresh = append(fresh, p)
			}
		}
		if len(fresh) == 0 {
			return
		}
		keeper.SignalAll(fresh, syscall.SIGKILL)
	}
}

// maxKillLooks bounds killRunsOf's looks at the process table.
const maxKillLooks = 20

// StopLeftovers stops what an earlier manager's jobs left running when
// that manager and its keeper both died (say, both were SIGKILLed): the
// processes its record at path names, and every process that carries its
// keeper's token. They get SIGTERM, then SIGKILL after a grace. An earlier
// keeper that is still alive gets leftoverKeeperWait to finish its own
// cleanup (none if it is stopped), then is killed and this does it. It
// returns how many processes it stopped; a missing record is no error.
func StopLeftovers(path string) (int, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer removeRecord(path)
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	if !oldKeeperDone(rec.Keeper) {
		// Stopped (a job can stop its keeper) or stuck: it will not clean
		// up, so it goes, and this does.
		keeper.SignalAll(keeperProc(rec.Keeper), syscall.SIGKILL)
	}
	left := keeper.Leftovers(rec.Keeper, rec.Mains)
	if len(left) == 0 {
		keeper.RemoveCgroup(rec.Keeper.Cgroup)
		return 0, nil
	}
	keeper.SignalAll(left, syscall.SIGTERM)
	deadline := time.Now().Add(leftoverGrace)
	for time.Now().Before(deadline) && anyAlive(left) {
		time.Sleep(20 * time.Millisecond)
	}
	// What they started meanwhile (a trap's cleanup) goes too.
	killRunsOf(rec.Keeper, rec.Mains)
	return len(left), nil
}

// oldKeeperDone waits, up to leftoverKeeperWait, for a previous keeper
// that is still alive (its lifeline gone, it stops its runs itself) to
// finish, and reports whether it did. A stopped keeper is not waited for.
func oldKeeperDone(id keeper.Identity) bool {
	deadline := time.Now().Add(leftoverKeeperWait)
	for {
		p, err := proc.Get(id.PID)
		if err != nil || p.Start != id.Start || p.Zombie {
			return true
		}
		if p.Stopped || time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// keeperProc is the keeper id names, if it is still that process.
func keeperProc(id keeper.Identity) []proc.Proc {
	if p, err := proc.Get(id.PID); err == nil && p.Start == id.Start {
		return []proc.Proc{p}
	}
	return nil
}

func anyAlive(ps []proc.Proc) bool {
	for _, p := range ps {
		if (keeper.ProcID{PID: p.PID, Start: p.Start}).Alive() {
			return true
		}
	}
	return false
}
