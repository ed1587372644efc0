package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK checks a tool call's arguments against the tool's input schema
// before the tool runs, and words a refusal as the schema library does
// ("validating /properties/tail: minimum: -1 is less than 0.000000"). It
// has no hook for the words, so checkArguments, a middleware, checks them
// first against the same schema, and says which argument is wrong and
// what it takes, as the tools' own errors do ("tail must be 0 or more,
// not -1"). What it lets through, the SDK checks as before.

// checkArguments refuses a tools/call whose arguments the tool's input
// schema refuses, in jobtop's words.
func (s *Server) checkArguments(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		call, ok := req.(*sdk.CallToolRequest)
		if !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		schema := s.schemas[call.Params.Name]
		var args any
		// No "arguments" at all is as {} (the SDK takes it so).
		if raw := call.Params.Arguments; schema == nil || len(raw) > 0 && json.Unmarshal(raw, &args) != nil {
			return next(ctx, method, req) // not ours to word (unknown tool, not JSON)
		}
		if args == nil {
			args = map[string]any{}
		}
		if msg := argProblem(call.Params.Name, schema, "", args); msg != "" {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}, nil
		}
		return next(ctx, method, req)
	}
}

// argProblem says what is wrong with value v of the argument at path
// ("" for the arguments themselves), or "" when schema s takes it.
func argProblem(tool string, s *jsonschema.Schema, path string, v any) string {
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	name := path
	if name == "" {
		name = "the arguments"
	}
	if v == nil {
		if slices.Contains(types, "null") || len(types) == 0 {
			return ""
		}
		return fmt.Sprintf("%s is null: give %s, or leave %s out if it is optional", name, typeWords(types), name)
	}
	if len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return hasType(v, t) }) {
		return fmt.Sprintf("%s must be %s, not %s", name, typeWords(types), valueWords(v))
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		var allowed []string
		for _, e := range s.Enum {
			allowed = append(allowed, fmt.Sprint(e))
		}
		return fmt.Sprintf("%s must be %s, not %s", name, orList(allowed), valueWords(v))
	}
	if isDuration(s) {
		// Read here as the tool will read it, to name the argument: the
		// SDK's own error leaves its name out.
		var d Duration
		if b, err := json.Marshal(v); err == nil {
			if err := d.UnmarshalJSON(b); err != nil {
				return name + ": " + err.Error()
			}
		}
	}
	if n, ok := v.(float64); ok {
		switch {
		case s.Minimum != nil && n < *s.Minimum:
			return fmt.Sprintf("%s must be %s or more, not %s", name, number(*s.Minimum), number(n))
		case s.Maximum != nil && n > *s.Maximum:
			return fmt.Sprintf("%s must be at most %s, not %s", name, number(*s.Maximum), number(n))
		}
	}
	switch v := v.(type) {
	case map[string]any:
		return objectProblem(tool, s, path, v)
	case []any:
		if s.Items == nil {
			return ""
		}
		for i, item := range v {
			if msg := argProblem(tool, s.Items, fmt.Sprintf("%s[%d]", path, i), item); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// objectProblem checks an object's properties: unknown ones, missing
// ones, and each one's value.
func objectProblem(tool string, s *jsonschema.Schema, path string, v map[string]any) string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p, known := s.Properties[k]
		if !known && s.AdditionalProperties != nil {
			if isFalse(s.AdditionalProperties) {
				if path == "" {
					return fmt.Sprintf("unknown argument %q: %s takes %s", k, tool, strings.Join(propertyNames(s), ", "))
				}
				return fmt.Sprintf("unknown key %q in %s: it takes %s", k, path, strings.Join(propertyNames(s), ", "))
			}
			p, known = s.AdditionalProperties, true
		}
		if !known {
			continue
		}
		at := k
		switch {
		case s.Properties[k] == nil: // a value of a map: env["PATH"]
			at = path + "[" + strconv.Quote(k) + "]"
		case path != "":
			at = path + "." + k
		}
		if v[k] == nil && slices.Contains(s.Required, k) && !slices.Contains(p.Types, "null") {
			return fmt.Sprintf("%s is null: give %s", at, typeWords(append(p.Types, p.Type)))
		}
		if msg := argProblem(tool, p, at, v[k]); msg != "" {
			return msg
		}
	}
	for _, r := range s.Required {
		if _, ok := v[r]; !ok {
			at := r
			if path != "" {
				at = path + "." + r
			}
			what := ""
			if d := s.Properties[r]; d != nil && d.Description != "" {
				what = ": " + d.Description
			}
			return fmt.Sprintf("%s is missing%s", at, what)
		}
	}
	return ""
}

// isFalse reports whether a schema is `false` (nothing is allowed).
func isFalse(s *jsonschema.Schema) bool {
	return s.Not != nil && reflect.DeepEqual(*s.Not, jsonschema.Schema{})
}

// propertyNames lists an object schema's properties, in order.
func propertyNames(s *jsonschema.Schema) []string {
	if len(s.PropertyOrder) > 0 {
		return s.PropertyOrder
	}
	names := slices.Collect(maps.Keys(s.Properties))
	slices.Sort(names)
	return names
}

// hasType reports whether a JSON value (as encoding/json decodes into
// any) is of a schema type.
func hasType(v any, t string) bool {
	switch v := v.(type) {
	case string:
		return t == "string"
	case bool:
		return t == "boolean"
	case float64:
		return t == "number" || t == "integer" && v == math.Trunc(v) && !math.IsInf(v, 0)
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}

// typeWords says what schema types take: "a whole number or a string".
func typeWords(types []string) string {
	words := map[string]string{"string": "a string", "integer": "a whole number", "number": "a number",
		"boolean": "true or false", "array": "a list", "object": "an object"}
	var out []string
	for _, t := range types {
		if w, ok := words[t]; ok {
			out = append(out, w)
		}
	}
	return orList(out)
}

// orList joins words: "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// valueWords shows a value in an error: a string quoted (cut at 40
// characters), a number as written, a list or an object by what it is.
func valueWords(v any) string {
	switch v := v.(type) {
	case string:
		if r := []rune(v); len(r) > 40 {
			v = string(r[:40]) + "…"
		}
		return "the string " + strconv.Quote(v)
	case float64:
		return number(v)
	case bool:
		return strconv.FormatBool(v)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprint(v)
}

// number writes a number as JSON would: 0, -1, 1.5.
func number(n float64) string { return strconv.FormatFloat(n, 'f', -1, 64) }
