package control

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// unknownFieldError is a field a request's object does not have: Object
// names the object it was in ("" for the body itself), Known lists the
// fields that object has, as they are spelt on the wire.
type unknownFieldError struct {
	Object, Name string
	Known        []string
}

func (e *unknownFieldError) Error() string {
	if e.Object == "" {
		return fmt.Sprintf("unknown field %q; known fields: %s", e.Name, strings.Join(e.Known, ", "))
	}
	return fmt.Sprintf("unknown field %q in %q; known fields: %s", e.Name, e.Object, strings.Join(e.Known, ", "))
}

// unknownField reads encoding/json's unknown field error (it names the
// field, not the object it is in), for v's object named object.
func unknownField(err error, object string, v any) (*unknownFieldError, bool) {
	name, ok := strings.CutPrefix(err.Error(), "json: unknown field ")
	if !ok {
		return nil, false
	}
	return &unknownFieldError{Object: object, Name: strings.Trim(name, `"`), Known: jsonFields(reflect.TypeOf(v))}, true
}

// decodeObject decodes a nested object of a request (b, the object named
// object) into v strictly: a field v does not have is an
// unknownFieldError naming the object and its fields, not the body's.
// Type errors keep their path ("restart.max"): encoding/json adds the
// object's name to an error its UnmarshalJSON returns.
func decodeObject(b []byte, object string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	if u, ok := unknownField(err, object, v); ok {
		return u
	}
	return err
}

// jsonFields lists the JSON names of a struct's fields (t, or what t
// points to), those of embedded structs in their place.
func jsonFields(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case tag == "-" || !f.IsExported() && !f.Anonymous:
		case f.Anonymous && name == "":
			names = append(names, jsonFields(f.Type)...)
		case name == "":
			names = append(names, f.Name)
		default:
			names = append(names, name)
		}
	}
	return names
}

// UnmarshalJSON reads "restart" strictly (decodeObject).
func (r *RestartRequest) UnmarshalJSON(b []byte) error {
	type plain RestartRequest
	return decodeObject(b, "restart", (*plain)(r))
}

// UnmarshalJSON reads "ready" strictly (decodeObject).
func (r *ReadyRequest) UnmarshalJSON(b []byte) error {
	type plain ReadyRequest
	return decodeObject(b, "ready", (*plain)(r))
}

// UnmarshalJSON reads "health" strictly (decodeObject).
func (r *HealthRequest) UnmarshalJSON(b []byte) error {
	return decodeObject(b, "health", &r.ProbeRequest)
}
