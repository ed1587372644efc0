package jobfile

import (
	"cmp"
	"fmt"

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
	doc     ast.Node // the document read
	anchors map[string][]anchorDef
	errs    ErrorList
	origins *pcOrigins // which file each node is from, when several are merged
}

func newNodeReader(file string, doc ast.Node) *nodeReader {
	r := &nodeReader{file: file, doc: doc, anchors: map[string][]anchorDef{}}
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
	r.errs = append(r.errs, &Error{File: cmp.Or(r.origins.fileOf(n), r.file), Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// position is where a node starts as people see it: a block mapping at its
// first key rather than its first ":".
func position(n ast.Node) (line, col int) {
	tk := positionToken(n)
	if tk == nil || tk.Position == nil {
		return 0, 0
	}
	return tk.Position.Line, tk.Position.Column
}

// positionToken is the token a node's position is read from.
func positionToken(n ast.Node) *token.Token {
	switch t := n.(type) {
	case nil:
		return nil
	case *ast.MappingNode:
		if !t.IsFlowStyle && len(t.Values) > 0 {
			return positionToken(t.Values[0].Key)
		}
	case *ast.MappingValueNode:
		return positionToken(t.Key)
	case *ast.DocumentNode: // its GetToken looks into Body, which may be nil
		if t.Start == nil {
			return positionToken(t.Body)
		}
		return t.Start
	}
	return n.GetToken()
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
