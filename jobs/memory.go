package jobs

// Arrivals is the newest Arrival handed out to a line of any job. Every
// line that arrived at or before it is committed by the time a read of
// its store takes the store's lock, so reading each store after taking
// Arrivals sees all of them.
func (m *Manager) Arrivals() uint64 { return m.arrival.Load() }

// MemoryUse adds up what every job's output store holds.
type MemoryUse struct {
	// Text is the bytes of text the stores hold.
	Text int64
	// Memory is every byte the stores keep alive (StoreStats.Memory).
	Memory int64
	// Running counts jobs with a live process: each has read buffers
	// on top.
	Running int
}

// MemoryUse adds up the memory of every job's output.
func (m *Manager) MemoryUse() MemoryUse {
	m.mu.Lock()
	defer m.mu.Unlock()
	var u MemoryUse
	for _, j := range m.jobs {
		st := j.store.Stats()
		u.Text += st.Text
		u.Memory += st.Memory
		if j.state.Active() {
			u.Running++
		}
	}
	return u
}
