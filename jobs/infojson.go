package jobs

import (
	"bytes"
	"encoding/json"
	"slices"
)

// MarshalJSON writes the job object: Info's fields as their tags say,
// and "pid": null for a job with no main process (never started, or its
// main process exited while what it left is stopped), as exit_code,
// signal and started_at are null when there is none. The null goes
// where pid would be: before stopped, else before exit_code, which
// always follows it (no key before them holds an object, and a key's
// name inside a string is escaped, so the first match is the key).
// HTML characters are left as they are; an encoder that escapes them
// escapes them when it takes this answer.
func (i Info) MarshalJSON() ([]byte, error) {
	type fields Info // Info's fields without this method
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(fields(i)); err != nil {
		return nil, err
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if i.PID != 0 {
		return b, nil
	}
	at := bytes.Index(b, []byte(`,"stopped":`))
	if at < 0 {
		at = bytes.Index(b, []byte(`,"exit_code":`))
	}
	return slices.Insert(b, at, []byte(`,"pid":null`)...), nil
}
