package keeper

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The keeper's messages are encoded as fields, as protocol buffers do
// (without their library): each a tag, uvarint(number<<1 | kind), then
// its value, a uvarint (kind 0: a count, an ID, a zigzag-encoded signed
// number, a flag) or a uvarint length and that many bytes (kind 1: a
// string). A list repeats its field, once per element; a field that is
// zero or "" is left out. A reader skips the fields it does not know, so
// a field added later needs no new protocol (reexec.go).
//
// JSON did the same before protocol "2", at about 30 us of CPU a start
// on both ends (reflection, escaping, a string and more allocated per
// environment variable), on the path of every start.

// Kinds of fields.
const (
	kindUint  = 0
	kindBytes = 1
)

// Fields of a request.
const (
	reqOp = iota + 1
	reqRun
	reqPath
	reqArgv
	reqEnv
	reqDir
	reqTTY
	reqStopSignal
	reqGraceMS
	reqHold
	reqLog
	reqRuns
	reqSignal
	reqStop
)

// Fields of an event.
const (
	evfEv = iota + 1
	evfRun
	evfPID
	evfStart
	evfErr
	evfToken
	evfStatus
	evfLeft
	evfAt
	evfCgroup
	evfNote
)

// marshal encodes a request or an event.
func marshal(v any) ([]byte, error) {
	var e encoder
	switch m := v.(type) {
	case request:
		e.request(&m)
	case *request:
		e.request(m)
	case event:
		e.event(&m)
	case *event:
		e.event(m)
	default:
		return nil, fmt.Errorf("keeper wire: cannot encode %T", v)
	}
	return e.b, nil
}

// unmarshal decodes body into a *request or an *event. Its strings share
// one copy of body: a caller that keeps one for long, and not the rest,
// clones it.
func unmarshal(body []byte, v any) error {
	d := decoder{s: string(body)}
	switch m := v.(type) {
	case *request:
		*m = request{}
		d.request(m)
		if d.err == nil && m.Op == "" {
			d.err = errors.New("a request with no operation")
		}
	case *event:
		*m = event{}
		d.event(m)
		if d.err == nil && m.Ev == "" {
			d.err = errors.New("an event with no kind")
		}
	default:
		return fmt.Errorf("keeper wire: cannot decode into %T", v)
	}
	return d.err
}

type encoder struct{ b []byte }

func (e *encoder) request(r *request) {
	e.b = make([]byte, 0, r.size())
	e.str(reqOp, r.Op)
	e.uint(reqRun, uint64(r.Run))
	e.str(reqPath, r.Path)
	e.strs(reqArgv, r.Argv)
	e.strs(reqEnv, r.Env)
	e.str(reqDir, r.Dir)
	if r.TTY {
		e.uint(reqTTY, 1)
	}
	e.int(reqStopSignal, int64(r.StopSignal))
	e.int(reqGraceMS, r.GraceMS)
	e.int(reqHold, int64(r.Hold))
	e.str(reqLog, r.Log)
	for _, run := range r.Runs {
		e.tag(reqRuns, kindUint)
		e.b = binary.AppendUvarint(e.b, uint64(run))
	}
	e.int(reqSignal, int64(r.Signal))
	if r.Stop {
		e.uint(reqStop, 1)
	}
}

// size is about what r takes encoded, so the encoder allocates once.
func (r *request) size() int {
	n := 64 + len(r.Op) + len(r.Path) + len(r.Dir) + len(r.Log) + 10*len(r.Runs)
	for _, list := range [][]string{r.Argv, r.Env} {
		for _, s := range list {
			n += len(s) + 4
		}
	}
	return n
}

func (e *encoder) event(ev *event) {
	e.b = make([]byte, 0, 48+len(ev.Ev)+len(ev.Err)+len(ev.Token)+len(ev.Cgroup)+len(ev.Note))
	e.str(evfEv, ev.Ev)
	e.uint(evfRun, uint64(ev.Run))
	e.int(evfPID, int64(ev.PID))
	e.uint(evfStart, ev.Start)
	e.str(evfErr, ev.Err)
	e.str(evfToken, ev.Token)
	e.int(evfStatus, int64(ev.Status))
	e.int(evfLeft, int64(ev.Left))
	e.int(evfAt, ev.At)
	e.str(evfCgroup, ev.Cgroup)
	e.str(evfNote, ev.Note)
}

func (e *encoder) tag(field, kind int) {
	e.b = binary.AppendUvarint(e.b, uint64(field)<<1|uint64(kind))
}

func (e *encoder) uint(field int, v uint64) {
	if v != 0 {
		e.tag(field, kindUint)
		e.b = binary.AppendUvarint(e.b, v)
	}
}

func (e *encoder) int(field int, v int64) {
	e.uint(field, uint64(v<<1)^uint64(v>>63)) // zigzag
}

func (e *encoder) str(field int, s string) {
	if s != "" {
		e.item(field, s)
	}
}

// strs writes every element, "" too (an empty argument is one).
func (e *encoder) strs(field int, list []string) {
	for _, s := range list {
		e.item(field, s)
	}
}

func (e *encoder) item(field int, s string) {
	e.tag(field, kindBytes)
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	e.b = append(e.b, s...)
}

// errShort is a message that ends inside a field. The receiver calls
// what does not decode a bad message.
var errShort = errors.New("it ends inside a field")

// maxField is the highest field number read as such (protocol buffers'
// too); a higher one is skipped as unknown, on 32-bit systems as well.
const maxField = 1<<29 - 1

type decoder struct {
	s   string
	err error
}

// field reads the next field's tag and value: n for a number, s for a
// string. It reports false at the end of the message or on an error.
func (d *decoder) field() (field, kind int, n uint64, s string, ok bool) {
	if d.err != nil || d.s == "" {
		return 0, 0, 0, "", false
	}
	tag := d.uvarint()
	n = d.uvarint()
	kind = int(tag & 1)
	if kind == kindBytes && d.err == nil {
		if n > uint64(len(d.s)) {
			d.err = errShort
		} else {
			s, d.s = d.s[:n], d.s[n:]
		}
	}
	if tag>>1 > maxField {
		return 0, kind, n, s, d.err == nil // field 0 is no field: skipped
	}
	return int(tag >> 1), kind, n, s, d.err == nil
}

func (d *decoder) uvarint() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		if d.s == "" {
			d.err = errShort
			return 0
		}
		c := d.s[0]
		d.s = d.s[1:]
		if shift == 63 && c > 1 {
			break // past 64 bits
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	d.err = errors.New("a number past 64 bits")
	return 0
}

func unzigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }

// int is a zigzag-encoded number that must fit an int (32 bits on 386
// and arm: a PID or a signal cut to 32 bits would name another).
func (d *decoder) int(n uint64) int {
	v := unzigzag(n)
	if v < math.MinInt || v > math.MaxInt {
		if d.err == nil {
			d.err = fmt.Errorf("a number out of range: %d", v)
		}
		return 0
	}
	return int(v)
}

// kindOf checks that a known field came as the kind it is sent as.
func (d *decoder) kindOf(field, kind, want int) bool {
	if kind != want && d.err == nil {
		d.err = fmt.Errorf("field %d sent as the wrong kind", field)
	}
	return kind == want
}

func (d *decoder) request(r *request) {
	for {
		field, kind, n, s, ok := d.field()
		if !ok {
			return
		}
		switch field {
		case reqOp, reqPath, reqArgv, reqEnv, reqDir, reqLog:
			if !d.kindOf(field, kind, kindBytes) {
				return
			}
		case reqRun, reqTTY, reqStopSignal, reqGraceMS, reqHold, reqRuns, reqSignal, reqStop:
			if !d.kindOf(field, kind, kindUint) {
				return
			}
		}
		if kind == kindBytes {
			switch field {
			case reqOp:
				r.Op = s
			case reqPath:
				r.Path = s
			case reqArgv:
				r.Argv = append(r.Argv, s)
			case reqEnv:
				r.Env = append(r.Env, s)
			case reqDir:
				r.Dir = s
			case reqLog:
				r.Log = s
			}
			continue
		}
		switch field {
		case reqRun:
			r.Run = RunID(n)
		case reqTTY:
			r.TTY = n != 0
		case reqStopSignal:
			r.StopSignal = d.int(n)
		case reqGraceMS:
			r.GraceMS = unzigzag(n)
		case reqHold:
			r.Hold = d.int(n)
		case reqRuns:
			r.Runs = append(r.Runs, RunID(n))
		case reqSignal:
			r.Signal = d.int(n)
		case reqStop:
			r.Stop = n != 0
		}
	}
}

func (d *decoder) event(ev *event) {
	for {
		field, kind, n, s, ok := d.field()
		if !ok {
			return
		}
		switch field {
		case evfEv, evfErr, evfToken, evfCgroup, evfNote:
			if !d.kindOf(field, kind, kindBytes) {
				return
			}
		case evfRun, evfPID, evfStart, evfStatus, evfLeft, evfAt:
			if !d.kindOf(field, kind, kindUint) {
				return
			}
		}
		if kind == kindBytes {
			switch field {
			case evfEv:
				ev.Ev = s
			case evfErr:
				ev.Err = s
			case evfToken:
				ev.Token = s
			case evfCgroup:
				ev.Cgroup = s
			case evfNote:
				ev.Note = s
			}
			continue
		}
		switch field {
		case evfRun:
			ev.Run = RunID(n)
		case evfPID:
			ev.PID = d.int(n)
		case evfStart:
			ev.Start = n
		case evfStatus:
			ev.Status = d.int(n)
		case evfLeft:
			ev.Left = d.int(n)
		case evfAt:
			ev.At = unzigzag(n)
		}
	}
}
