package jobs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Lookup answers a name as the CLI and the API mean it: the newest job
// with it; a removed job, or one renamed, no longer answers to it.
func TestLookupFindsTheNewestJobWithTheName(t *testing.T) {
	m := newManager(t, Options{})
	a := wait(t, m, start(t, m, Spec{Name: "web", Command: "true"}).ID)
	b := wait(t, m, start(t, m, Spec{Name: "web", Command: "true"}).ID)
	c := wait(t, m, start(t, m, Spec{Command: "true"}).ID) // named "true"

	id, ok := m.Lookup("web")
	assert.True(t, ok)
	assert.Equal(t, b.ID, id, "the newest of two")
	id, ok = m.Lookup("true")
	assert.True(t, ok)
	assert.Equal(t, c.ID, id, "a name given by default")
	_, ok = m.Lookup("nothing")
	assert.False(t, ok)

	require.NoError(t, m.Remove(b.ID))
	id, _ = m.Lookup("web")
	assert.Equal(t, a.ID, id, "the newest left")
	_, err := m.Replace(a.ID, Spec{Name: "api", Command: "true"})
	require.NoError(t, err)
	_, ok = m.Lookup("web")
	assert.False(t, ok, "renamed away")
	id, _ = m.Lookup("api")
	assert.Equal(t, a.ID, id)
}
