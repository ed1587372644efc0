package jobs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"jobtop/jobs/keeper"
	"jobtop/jobs/proc"
)

// leftoverGrace is how long StopLeftovers waits after SIGTERM before it
// sends SIGKILL.
const leftoverGrace = 3 * time.Second

// record is what a manager writes to Options.RecordPath.
type record struct {
	Keeper keeper.Identity `json:"keeper"`
	Mains  []keeper.ProcID `json:"mains"`
}

// recordKeeper notes that the record needs writing (a new keeper, a run
// started or ended); it is written shortly after, off the lock.
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
	rec := record{Keeper: m.keeperID}
	closed := m.keeperClosed
	m.keeperMu.Unlock()
	if closed {
		return
	}
	m.mu.Lock()
	for _, j := range m.byRun {
		if p := j.proc; p != nil && p.spawned && !p.exited {
			rec.Mains = append(rec.Mains, keeper.ProcID{PID: p.pid, Start: p.start})
		}
	}
	m.mu.Unlock()
	writeFileAtomic(m.opts.RecordPath, rec) //nolint:errcheck // best effort: the keeper's own cleanup is the first line
}

func writeFileAtomic(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
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
		os.Remove(m.opts.RecordPath)
	}
}

// killRunsOf kills every process left by the runs of a keeper that died.
func killRunsOf(token string) {
	keeper.SignalAll(keeper.Leftovers(token, nil), syscall.SIGKILL)
}

// StopLeftovers stops what an earlier manager's jobs left running when
// that manager and its keeper both died (say, both were SIGKILLed): the
// processes its record at path names, and every process that carries its
// keeper's token. They get SIGTERM, then SIGKILL after a grace. If the
// earlier keeper is still alive it is left to finish its own cleanup. It
// returns how many processes it stopped; a missing record is no error.
func StopLeftovers(path string) (int, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer os.Remove(path)
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	if (keeper.ProcID{PID: rec.Keeper.PID, Start: rec.Keeper.Start}).Alive() {
		return 0, nil // it stops them itself: its lifeline is gone
	}
	left := keeper.Leftovers(rec.Keeper.Token, rec.Mains)
	if len(left) == 0 {
		return 0, nil
	}
	keeper.SignalAll(left, syscall.SIGTERM)
	deadline := time.Now().Add(leftoverGrace)
	for time.Now().Before(deadline) && anyAlive(left) {
		time.Sleep(20 * time.Millisecond)
	}
	keeper.SignalAll(left, syscall.SIGKILL)
	return len(left), nil
}

func anyAlive(ps []proc.Proc) bool {
	for _, p := range ps {
		if (keeper.ProcID{PID: p.PID, Start: p.Start}).Alive() {
			return true
		}
	}
	return false
}
