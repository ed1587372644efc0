package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"jobtop/jobs"
)

// JobRef names a job in a tool's arguments: its ID (3, or "3") or its
// name ("web": the newest job with that name).
type JobRef struct {
	ID   int
	Name string
}

// UnmarshalJSON reads a number or a string.
func (r *JobRef) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if msg := jobs.BadID(s); msg != "" {
			return errors.New(msg)
		}
		if n, err := strconv.Atoi(s); err == nil {
			*r = JobRef{ID: n}
			return nil
		}
		*r = JobRef{Name: s}
		return nil
	}
	if msg := jobs.BadID(string(b)); msg != "" {
		return errors.New(msg) // 0, -1, or past any ID (not rounded as a float)
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("a job is its ID (a number) or its name (a string), not %s", b)
	}
	if f != float64(int(f)) {
		return fmt.Errorf("job ID %s is not a whole number", b)
	}
	*r = JobRef{ID: int(f)}
	return nil
}

// String is the job as the caller gave it.
func (r JobRef) String() string {
	if r.Name != "" {
		return strconv.Quote(r.Name)
	}
	return strconv.Itoa(r.ID)
}

// Duration is a length of time in a tool's arguments: a Go duration
// string ("30s", "5m", "1h30m") or a number of seconds.
type Duration time.Duration

// UnmarshalJSON reads a duration string or a number of seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			*d = 0
			return nil
		}
		if secs, err := strconv.ParseFloat(s, 64); err == nil {
			return d.setSeconds(secs, s)
		}
		v, err := time.ParseDuration(s)
		if err != nil && jobs.DurationTooLarge(s) {
			return fmt.Errorf("%q is too large: at most %s", s, jobs.MaxDurationText)
		}
		if err != nil {
			return fmt.Errorf("%q is not a duration: write a number of seconds or a number with a unit, like 30s, 5m or 1h30m", s)
		}
		if v < 0 {
			return fmt.Errorf("duration %s is negative", s)
		}
		*d = Duration(v)
		return nil
	}
	var secs float64
	if err := json.Unmarshal(b, &secs); err != nil {
		return fmt.Errorf("a duration is a string like \"30s\" or a number of seconds, not %s", b)
	}
	return d.setSeconds(secs, string(b))
}

func (d *Duration) setSeconds(secs float64, text string) error {
	if secs < 0 {
		return fmt.Errorf("duration %s is negative", text)
	}
	if secs > float64(24*365*time.Hour/time.Second) {
		return fmt.Errorf("duration %s seconds is more than a year", text)
	}
	*d = Duration(time.Duration(secs * float64(time.Second)))
	return nil
}

// argSchemas are the JSON schemas of the argument types that read more
// than one JSON type.
var argSchemas = sync.OnceValue(func() map[reflect.Type]*jsonschema.Schema {
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[JobRef](): {
			Types:       []string{"integer", "string"},
			Description: "a job's ID (a number) or its name (the newest job with that name)",
		},
		reflect.TypeFor[Duration](): {
			Types:       []string{"string", "number"},
			Description: `a duration like "30s", "5m", "1h30m", or a number of seconds`,
		},
	}
})

// inputSchema is the input schema of a tool taking T, with adjust's
// changes (enums, defaults, minimums).
func inputSchema[T any](adjust func(props map[string]*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: argSchemas()})
	if err != nil {
		panic(err) // a programming error in a tool's argument type
	}
	if adjust != nil {
		adjust(s.Properties)
	}
	describeDurations(s)
	return s
}

// durationWords end a Duration argument's description, which its field's
// own replaces: a model must know that 5 is 5 seconds.
const durationWords = `; a duration like "30s", "5m", "1h30m", or a number of seconds (5 means 5s)`

// isDuration says schema s is a Duration property's (the only argument
// type that takes a string or a number).
func isDuration(s *jsonschema.Schema) bool {
	return slices.Equal(s.Types, argSchemas()[reflect.TypeFor[Duration]()].Types)
}

// describeDurations ends the description of each Duration property of s
// (and of the objects in it) with durationWords.
func describeDurations(s *jsonschema.Schema) {
	for _, p := range s.Properties {
		if isDuration(p) && !strings.Contains(p.Description, "number of seconds") {
			p.Description = strings.TrimSuffix(p.Description, ".") + durationWords
		}
		describeDurations(p)
	}
}

// enum limits a string property to values.
func enum(p *jsonschema.Schema, values ...string) {
	for _, v := range values {
		p.Enum = append(p.Enum, v)
	}
}

// minimum gives a number property a lower bound.
func minimum(p *jsonschema.Schema, n float64) { p.Minimum = &n }
