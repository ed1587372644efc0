package jobs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// idBlock is how many job IDs a manager takes at a time in its ID mark
// (Options.IDPath): the mark is written, and synced to disk, once per
// block, not once per start. A manager that dies skips what is left of
// its block; the next one numbers its jobs from the block's end.
const idBlock = 100

// idMark is the file (Options.IDPath) where managers that follow one
// another keep the highest job ID one of them has taken, so that the
// next numbers its jobs after it: an ID never names two jobs, however
// many managers came and went (jobtop keeps one per socket, so that `jobtop
// wait 3` never waits for another instance's job 3).
type idMark struct {
	path  string
	start int64 // the first ID the manager gives: after the last taken before
	// taken is the highest ID the manager may give before it writes the
	// file again: what the file holds, unless that write failed.
	taken atomic.Int64
	mu    sync.Mutex // one write of the file at a time
	// written is what the file held when this manager last read or
	// wrote it; warned says a failed write was told.
	written int64
	warned  bool
}

// maxIDMark is the highest mark taken as one: IDs beyond it are no
// integers a JSON client reads exactly (2^53), and a mark near the
// largest int (an ID's: 2^31 on 32-bit systems) would wrap to a
// negative ID.
const maxIDMark = min(1<<53, math.MaxInt-2*idBlock)

// idMarkFile is what the file holds.
type idMarkFile struct {
	// Taken: every ID up to it is taken (given, or held back for a
	// manager that may have given it).
	Taken int64 `json:"taken"`
}

// openIDMark reads the mark at path (none there: no ID taken yet) and
// takes this manager's first block.
func openIDMark(path string) (*idMark, error) {
	b, err := os.ReadFile(path)
	var rec idMarkFile
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("job ID mark: %w", err)
	default:
		// (A block's end may pass maxIDMark by a block: rev60.)
		if err := json.Unmarshal(b, &rec); err != nil || rec.Taken < 0 || rec.Taken > maxIDMark+idBlock {
			return nil, fmt.Errorf("job ID mark %s is damaged (%q): remove it, and job IDs start again from 1, so an ID of an earlier instance may name a new job", path, b)
		}
	}
	mk := &idMark{path: path, start: rec.Taken + 1, written: rec.Taken}
	mk.taken.Store(rec.Taken)
	mk.cover(ID(rec.Taken + 1))
	return mk, nil
}

// cover makes sure the file holds id as taken before id is given: when
// it is past the block, the file takes the block after id. A write that
// fails (a full disk, a read-only state directory) does not stop jobs
// from starting: it is said once on stderr, and the IDs go on from
// memory; only an instance after a crash could then give them again.
func (mk *idMark) cover(id ID) {
	if int64(id) <= mk.taken.Load() {
		return
	}
	mk.mu.Lock()
	defer mk.mu.Unlock()
	if int64(id) <= mk.taken.Load() {
		return
	}
	end := (int64(id)/idBlock + 1) * idBlock
	if err := writeIDMark(mk.path, end); err != nil {
		if !mk.warned {
			fmt.Fprintf(os.Stderr, "jobtop: recording job IDs up to %d: %v; IDs go on, but should this instance die, the next may give IDs from %d again\n", end, err, mk.written+1)
			mk.warned = true
		}
	} else {
		mk.written = end
	}
	mk.taken.Store(end)
}

// settle writes last, the highest ID the manager took, as the mark, as
// the manager shuts down: the next numbers its jobs from last+1, with
// no gap. A manager that dies leaves its block's end there.
// A file removed meanwhile (pruned as old: pruneSocketStates) is written
// again.
func (mk *idMark) settle(last ID) {
	mk.mu.Lock()
	defer mk.mu.Unlock()
	if int64(last) == mk.written {
		return // the block's end; nothing to take back
	}
	// Only this manager's own block is given back: never a mark another
	// one wrote since.
	b, err := os.ReadFile(mk.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil || !bytes.Equal(bytes.TrimSpace(b), markJSON(mk.written)):
		return
	}
	writeIDMark(mk.path, int64(last)) //nolint:errcheck // the block's end stays: IDs are skipped, none reused
}

// markJSON is the file's content for taken, without its newline.
func markJSON(taken int64) []byte {
	b, _ := json.Marshal(idMarkFile{Taken: taken}) //nolint:errcheck // an int64 marshals
	return b
}

// writeIDMark replaces the mark at path with taken, durably: the new
// file is synced before it takes the name, and the directory after, so
// that after a crash of the system too the file holds the old mark or
// the new one, and an ID given out under the new one is never given
// again.
func writeIDMark(path string, taken int64) error {
	b := markJSON(taken)
	next := path + nextSuffix
	f, err := os.OpenFile(next, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(next, path)
	}
	if err != nil {
		os.Remove(next)
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		err = d.Sync()
		d.Close()
		return err
	}
	return nil
}
