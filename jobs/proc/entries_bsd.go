//go:build darwin || freebsd

package proc

// entriesOf makes Entries of PIDs, with no generation.
func entriesOf(pids []int, err error) ([]Entry, error) {
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(pids))
	for i, pid := range pids {
		out[i] = Entry{PID: pid}
	}
	return out, nil
}
