package control

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// mapFields are the request fields whose objects are maps, their keys
// names of the caller's (environment variables, jobs, headers), which
// differ by case; every other object is a struct's fields, which
// encoding/json matches ignoring case.
var mapFields = map[string]bool{"env": true, "depends_on": true, "headers": true}

// duplicateField finds a name given twice in one object of a JSON body:
// encoding/json keeps the last one (and merges two objects given for one
// field), so {"command": "a", "command": "b"} would run b without a
// word; and in a struct's object, {"command": "a", "Command": "b"} too.
// It returns the first such name (as given the second time) and the
// object it is in ("" for the body itself, else the field holding the
// object). A body that is not JSON has none: decoding it says what is
// wrong.
func duplicateField(body []byte) (object, name string, found bool) {
	type frame struct {
		object   bool
		name     string // the field this object or array is the value of
		keys     map[string]bool
		wantsKey bool
		key      string // the key whose value comes next
	}
	if !json.Valid(body) {
		return "", "", false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var stack []*frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantsKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", "", false
		}
		var top *frame
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		if top != nil && top.object && top.wantsKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				valueDone()
				continue
			}
			key, _ := tok.(string)
			seen := key
			if !mapFields[top.name] {
				seen = strings.ToLower(key)
			}
			if top.keys[seen] {
				return top.name, key, true
			}
			top.keys[seen] = true
			top.wantsKey, top.key = false, key
			continue
		}
		name := ""
		if top != nil {
			name = top.name
			if top.object {
				name = top.key
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, name: name, keys: map[string]bool{}, wantsKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{name: name})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
			valueDone()
		default:
			valueDone()
		}
		if len(stack) == 0 {
			return "", "", false
		}
	}
}

// CheckDuplicateFields refuses a JSON object that gives a field twice
// (duplicateField), saying which: MCP's tool arguments are checked so as
// well as the API's bodies.
func CheckDuplicateFields(body []byte) error {
	object, name, found := duplicateField(body)
	switch {
	case !found:
		return nil
	case object == "":
		return fmt.Errorf("field %q is given twice", name)
	}
	return fmt.Errorf("%q is given twice in %q", name, object)
}

// strictDecoder reads a request body and returns a decoder over it that
// refuses unknown fields, after refusing a field given twice.
func strictDecoder(r io.Reader) (*json.Decoder, error) {
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if err := CheckDuplicateFields(body); err != nil {
		return nil, badRequest("%s", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	return dec, nil
}
