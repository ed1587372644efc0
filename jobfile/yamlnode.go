package jobfile

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// maxMergeDepth bounds merge keys inside merged mappings (and so a mapping
// that merges itself).
const maxMergeDepth = 8

// entry is one key of a YAML mapping, with its value resolved (anchors,
// aliases and tags looked through).
type entry struct {
	name  string
	key   ast.Node
	value ast.Node
	path  string // for messages: jobs.web.cmd
}

// anchorDef is one &name in the file; an alias refers to the last anchor of
// its name defined before it.
type anchorDef struct {
	offset int
	value  ast.Node
}

// nodeReader turns YAML nodes into Go values, recording positioned errors
// instead of stopping at the first.
type nodeReader struct {
	file    string
	anchors map[string][]anchorDef
	errs    ErrorList
}

func newNodeReader(file string, doc ast.Node) *nodeReader {
	r := &nodeReader{file: file, anchors: map[string][]anchorDef{}}
	ast.Walk(anchorCollector(r.anchors), doc)
	return r
}

type anchorCollector map[string][]anchorDef

func (c anchorCollector) Visit(n ast.Node) ast.Visitor {
	if a, ok := n.(*ast.AnchorNode); ok && a.Name != nil && a.Start != nil {
		name := a.Name.GetToken().Value
		c[name] = append(c[name], anchorDef{offset: a.Start.Position.Offset, value: a.Value})
	}
	return c
}

// errorf records a problem at n's position.
func (r *nodeReader) errorf(n ast.Node, format string, args ...any) {
	line, col := position(n)
	r.errs = append(r.errs, &Error{File: r.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// errorAt records a problem at a token's position (nil: unknown).
func (r *nodeReader) errorAt(tk *token.Token, msg string) {
	e := &Error{File: r.file, Msg: msg}
	if tk != nil && tk.Position != nil {
		e.Line, e.Col = tk.Position.Line, tk.Position.Column
	}
	r.errs = append(r.errs, e)
}

// position is where a node starts as people see it: a block mapping at its
// first key rather than its first ":".
func position(n ast.Node) (line, col int) {
	switch t := n.(type) {
	case nil:
		return 0, 0
	case *ast.MappingNode:
		if !t.IsFlowStyle && len(t.Values) > 0 {
			return position(t.Values[0].Key)
		}
	case *ast.MappingValueNode:
		return position(t.Key)
	case *ast.DocumentNode: // its GetToken looks into Body, which may be nil
		if t.Start == nil {
			return position(t.Body)
		}
		return t.Start.Position.Line, t.Start.Position.Column
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 0, 0
	}
	return tk.Position.Line, tk.Position.Column
}

// resolve looks through anchors, tags and aliases to the node that holds
// the value. It returns nil (having said why) for an alias to no anchor;
// the readers below take a nil value as a problem already reported.
func (r *nodeReader) resolve(n ast.Node) ast.Node {
	for range maxMergeDepth {
		switch t := n.(type) {
		case *ast.AnchorNode:
			n = t.Value
		case *ast.TagNode:
			n = t.Value
		case *ast.AliasNode:
			target := r.aliasTarget(t)
			if target == nil {
				return nil
			}
			n = target
		default:
			return n
		}
	}
	r.errorf(n, "aliases nest too deeply")
	return nil
}

func (r *nodeReader) aliasTarget(a *ast.AliasNode) ast.Node {
	if a.Value == nil || a.Start == nil {
		r.errorf(a, "alias without a name")
		return nil
	}
	name := a.Value.GetToken().Value
	var found ast.Node
	for _, d := range r.anchors[name] {
		if d.offset < a.Start.Position.Offset {
			found = d.value
		}
	}
	if found == nil {
		r.errorf(a, "alias *%s refers to no anchor &%s defined before it", name, name)
	}
	return found
}

// isNull reports whether a resolved node holds no value.
func isNull(n ast.Node) bool {
	_, null := n.(*ast.NullNode)
	return n == nil || null
}

// kind names a node's type for messages.
func kind(n ast.Node) string {
	switch n.(type) {
	case nil, *ast.NullNode:
		return "nothing"
	case *ast.StringNode, *ast.LiteralNode:
		return "a string"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	case *ast.BoolNode:
		return "true/false"
	case *ast.SequenceNode:
		return "a list"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	}
	return "a " + n.Type().String()
}

// mapping reads the entries of a mapping in file order, merge keys (<<)
// expanded: keys written in the mapping win over merged ones, and earlier
// merged mappings over later ones. A null value is an empty mapping. ok is
// false (and the error recorded) when the value is not a mapping.
func (r *nodeReader) mapping(e entry) (entries []entry, ok bool) {
	if e.value == nil {
		return nil, false // an alias to nothing, reported already
	}
	if isNull(e.value) {
		return nil, true
	}
	if kind(e.value) != "a mapping" {
		r.errorf(at(e), "%s: want a mapping, got %s", e.path, kind(e.value))
		return nil, false
	}
	return r.mappingEntries(e.value, e.path, 0), true
}

func (r *nodeReader) mappingEntries(n ast.Node, path string, depth int) []entry {
	var values []*ast.MappingValueNode
	switch t := n.(type) {
	case *ast.MappingNode:
		values = t.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{t}
	}
	written := map[string]bool{}
	for _, mv := range values {
		if name, ok := keyText(mv.Key); ok && !mv.Key.IsMergeKey() {
			written[name] = true
		}
	}
	seen := map[string]bool{}
	var out []entry
	add := func(e entry) {
		if !seen[e.name] {
			seen[e.name] = true
			out = append(out, e)
		}
	}
	for _, mv := range values {
		if mv.Key.IsMergeKey() {
			for _, m := range r.merged(mv, path, depth) {
				if !written[m.name] {
					add(m)
				}
			}
			continue
		}
		name, ok := keyText(mv.Key)
		if !ok {
			r.errorf(mv.Key, "%s: keys must be plain names, got %s", path, kind(r.resolve(mv.Key)))
			continue
		}
		add(entry{name: name, key: mv.Key, value: r.resolve(mv.Value), path: joinPath(path, name)})
	}
	return out
}

// merged reads the mappings a merge key brings in.
func (r *nodeReader) merged(mv *ast.MappingValueNode, path string, depth int) []entry {
	if depth >= maxMergeDepth {
		r.errorf(mv.Key, "%s: merge keys nest too deeply", path)
		return nil
	}
	src := r.resolve(mv.Value)
	sources := []ast.Node{src}
	if seq, ok := src.(*ast.SequenceNode); ok {
		sources = sources[:0]
		for _, v := range seq.Values {
			sources = append(sources, r.resolve(v))
		}
	}
	var out []entry
	for _, s := range sources {
		if kind(s) != "a mapping" {
			if s != nil {
				r.errorf(mv.Key, "%s: << merges mappings, got %s", path, kind(s))
			}
			continue
		}
		out = append(out, r.mappingEntries(s, path, depth+1)...)
	}
	return out
}

// keyText is a mapping key's text, when it is a scalar.
func keyText(k ast.Node) (string, bool) {
	switch t := k.(type) {
	case *ast.StringNode:
		return t.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NullNode:
		return t.GetToken().Value, true
	}
	return "", false
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// at is where to report a problem with an entry's value: the value itself,
// or its key when the value is missing.
func at(e entry) ast.Node {
	if isNull(e.value) || e.value.GetToken() == nil {
		return e.key
	}
	return e.value
}

// scalarText is the text of any scalar but null.
func scalarText(n ast.Node) (string, bool) {
	switch t := n.(type) {
	case *ast.StringNode:
		return t.Value, true
	case *ast.LiteralNode:
		if t.Value == nil {
			return "", true
		}
		return t.Value.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return t.GetToken().Value, true
	}
	return "", false
}

// text reads a value written as text (any scalar but null).
func (r *nodeReader) text(e entry) (string, bool) {
	s, ok := scalarText(e.value)
	if !ok && e.value != nil {
		r.errorf(at(e), "%s: want a string, got %s", e.path, kind(e.value))
	}
	return s, ok
}

// bool reads true or false.
func (r *nodeReader) bool(e entry) (v, ok bool) {
	b, ok := e.value.(*ast.BoolNode)
	if !ok {
		r.errorf(at(e), "%s: want true or false, got %s", e.path, kind(e.value))
		return false, false
	}
	return b.Value, true
}

// count reads a whole number that is 0 or more.
func (r *nodeReader) count(e entry) (int, bool) {
	n, ok := e.value.(*ast.IntegerNode)
	if !ok {
		r.errorf(at(e), "%s: want a whole number, got %s", e.path, kind(e.value))
		return 0, false
	}
	v, ok := intValue(n)
	switch {
	case !ok || v > math.MaxInt32:
		r.errorf(e.value, "%s: %s is too large", e.path, n.GetToken().Value)
		return 0, false
	case v < 0:
		r.errorf(e.value, "%s: %d is negative", e.path, v)
		return 0, false
	}
	return int(v), true
}

// intValue is an integer node's value, when it fits an int64.
func intValue(n *ast.IntegerNode) (int64, bool) {
	switch v := n.Value.(type) {
	case int64:
		return v, true
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v), true
		}
	}
	return 0, false
}

// duration reads a Go duration ("500ms", "1m30s") that is 0 or more.
func (r *nodeReader) duration(e entry) (time.Duration, bool) {
	var text string
	switch t := e.value.(type) {
	case *ast.StringNode:
		text = t.Value
	case *ast.IntegerNode:
		if v, ok := intValue(t); ok && v == 0 {
			return 0, true
		}
		r.errorf(e.value, "%s: %s has no unit: write e.g. %ss or %sms", e.path, t.GetToken().Value, t.GetToken().Value, t.GetToken().Value)
		return 0, false
	default:
		r.errorf(at(e), "%s: want a duration like 500ms, 5s or 1m30s, got %s", e.path, kind(e.value))
		return 0, false
	}
	d, err := time.ParseDuration(strings.TrimSpace(text))
	if err != nil {
		r.errorf(e.value, "%s: %q is not a duration: write e.g. 500ms, 5s or 1m30s", e.path, text)
		return 0, false
	}
	if d < 0 {
		r.errorf(e.value, "%s: %s is negative", e.path, text)
		return 0, false
	}
	return d, true
}

// size reads a byte count: a whole number, or one with a unit (KB, KiB,
// MB, MiB, GB, GiB).
func (r *nodeReader) size(e entry) (int64, bool) {
	if n, ok := e.value.(*ast.IntegerNode); ok {
		if v, ok := intValue(n); ok && v >= 0 {
			return v, true
		}
	}
	text, ok := scalarText(e.value)
	if !ok {
		r.errorf(at(e), "%s: want a size like 64MiB, got %s", e.path, kind(e.value))
		return 0, false
	}
	v, err := parseSize(text)
	if err != nil {
		r.errorf(e.value, "%s: %v", e.path, err)
		return 0, false
	}
	return v, true
}

var sizeUnits = map[string]int64{
	"": 1, "B": 1,
	"KB": 1e3, "MB": 1e6, "GB": 1e9,
	"KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30,
}

func parseSize(text string) (int64, error) {
	t := strings.TrimSpace(text)
	i := strings.IndexFunc(t, func(c rune) bool { return c < '0' || c > '9' })
	if i < 0 {
		i = len(t)
	}
	unit, ok := sizeUnits[strings.ToUpper(strings.TrimSpace(t[i:]))]
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if !ok || err != nil {
		return 0, fmt.Errorf("%q is not a size: write e.g. 500KiB, 64MiB or 1GiB", text)
	}
	if n > math.MaxInt64/unit {
		return 0, fmt.Errorf("%q is too large", text)
	}
	return n * unit, nil
}

// fields dispatches a mapping's entries to one reader per known key and
// reports unknown keys, suggesting the likely one.
type fields map[string]func(entry)

func (r *nodeReader) readFields(path string, entries []entry, fs fields) {
	for _, e := range entries {
		if read, ok := fs[e.name]; ok {
			if e.value != nil {
				read(e)
			}
			continue
		}
		r.errorf(e.key, "%s: unknown key %q%s", nonEmpty(path, "top level"), e.name, suggest(e.name, fs))
	}
}

func nonEmpty(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// knownAliases are keys other tools use for what jobtop names differently.
var knownAliases = map[string]string{
	"command": "cmd", "working_dir": "cwd", "dir": "cwd", "environment": "env",
	"depends": "depends_on", "readiness_probe": "ready", "readiness": "ready",
	"stop_signal": "stop", "restart_policy": "restart",
}

// suggest names the known key closest to an unknown one, or lists them.
func suggest(name string, fs fields) string {
	if alias, ok := knownAliases[name]; ok && fs[alias] != nil {
		return fmt.Sprintf(" (did you mean %q?)", alias)
	}
	keys := make([]string, 0, len(fs))
	for k := range fs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if best := closest(name, keys); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return " (known keys: " + strings.Join(keys, ", ") + ")"
}

// closest returns the candidate that name is most likely a typo of: one
// within a few edits (1 for short names, 2 for longer ones), else one
// whose letters all appear in name in order (cmd in "comand").
func closest(name string, candidates []string) string {
	name = strings.ToLower(name)
	best, bestDist := "", 2
	if len(name) < 5 {
		bestDist = 1
	}
	for _, c := range candidates {
		if d := editDistance(name, c); d <= bestDist {
			best, bestDist = c, d-1
		}
	}
	if best != "" {
		return best
	}
	for _, c := range candidates {
		if len(c) >= 3 && name != "" && c[0] == name[0] && isSubsequence(c, name) {
			return c
		}
	}
	return ""
}

func isSubsequence(short, long string) bool {
	i := 0
	for j := 0; j < len(long) && i < len(short); j++ {
		if long[j] == short[i] {
			i++
		}
	}
	return i == len(short)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
