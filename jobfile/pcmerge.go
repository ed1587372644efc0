package jobfile

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// This file reads a process-compose file that is several: the override
// file process-compose merges over the file it finds itself, the files
// of several -f, and the files a top-level extends: names. They are
// merged as process-compose's loader merges them (mergo with
// WithOverride and WithAppendSlice, and its own rules for environment,
// processes and namespace):
//
//   - a mapping is merged key by key, the later file's value over the
//     earlier one's; processes are merged by name, each process field by
//     field, a process in one file only kept as it is;
//   - a list is appended to (entrypoint, success_exit_codes), except
//     environment, merged by variable name, and namespace, replaced;
//   - depends_on, vars and env_cmds are merged by name, each entry
//     replaced whole;
//   - a scalar is replaced, unless the later value is empty (false, 0,
//     "", null): mergo keeps the earlier value then, so `disabled: false`
//     in an override does not enable a disabled process (is_disabled:
//     false does: it is a string to process-compose, so not empty).
//
// Every node keeps its file and line: the merged document is made of the
// files' own nodes, and origin says which file each came from.

// maxMaterialize bounds how deep a file's document is copied (an alias
// inside its own anchor would repeat forever).
const maxMaterialize = 64

// pcSource is one file of a merged process-compose file.
type pcSource struct {
	file     string // as shown: as given, or joined to the extending file's directory
	dir      string // absolute; used for a file an extends: names
	extended bool   // read for an extends: its working_dirs are relative to it
}

// pcOrigins says which file each token of a merged document is from, and,
// for the files an extends: named, the directory their working_dirs are
// relative to.
type pcOrigins struct {
	file map[*token.Token]string
	dir  map[*token.Token]string
	item map[*token.Token]string // a list item's path in its own file
}

// fileOf is the file n is from; "" when unknown.
func (o *pcOrigins) fileOf(n ast.Node) string {
	if o == nil {
		return ""
	}
	return o.file[positionToken(n)]
}

// itemPath is the path a list item of a merged list has in its own file
// (environment[0] of the later file, not its place in the merged list);
// "" when unknown.
func (o *pcOrigins) itemPath(n ast.Node) string {
	if o == nil || n == nil {
		return ""
	}
	return o.item[positionToken(n)]
}

// dirOf is the directory n's relative paths start from, when n is from a
// file an extends: named; "" otherwise.
func (o *pcOrigins) dirOf(n ast.Node) string {
	if o == nil || n == nil {
		return ""
	}
	return o.dir[positionToken(n)]
}

// pcOverrideFiles are the override files process-compose merges over the
// file it finds itself, the first of them there is, in its order.
var pcOverrideFiles = []string{
	"compose.override.yml", "compose.override.yaml",
	"process-compose.override.yml", "process-compose.override.yaml",
}

// pcOverride is the override file beside path, "" when there is none.
func pcOverride(path string) string {
	if all := pcOverrides(path); len(all) > 0 {
		return all[0]
	}
	return ""
}

// pcOverrides are the override files beside path, in process-compose's
// order: it uses the first.
func pcOverrides(path string) []string {
	var out []string
	for _, name := range pcOverrideFiles {
		p := filepath.Join(filepath.Dir(path), name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && name != filepath.Base(path) {
			out = append(out, p)
		}
	}
	return out
}

// isMerged says whether a process-compose file is read with others: -f
// given more than once, an override file found beside it, or its
// top-level extends:. A file named jobtop.yaml never is (unless it is a
// process-compose file by its content, and then gets no override file:
// process-compose does not find it).
func isMerged(path string, body ast.Node, o LoadOptions) bool {
	if isJobtopName(path) && !isProcessCompose(body) {
		return false
	}
	return len(o.More) > 0 || (o.Found && !isJobtopName(path) && pcOverride(path) != "") || hasTopKey(body, "extends")
}

// hasTopKey says whether a document's top-level mapping has the key.
func hasTopKey(body ast.Node, key string) bool {
	var values []*ast.MappingValueNode
	switch t := body.(type) {
	case *ast.MappingNode:
		values = t.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{t}
	}
	for _, mv := range values {
		if name, _ := keyText(mv.Key); name == key {
			return true
		}
	}
	return false
}

// pcMerger reads the files of a merged process-compose file.
type pcMerger struct {
	p       *pcFile
	origins *pcOrigins
	read    map[string]string // absolute path -> as shown, of every file named or extended
	sources []pcSource
	errs    ErrorList
	earlier string // what base is, for messages: "" for an earlier file
}

// readMerged reads the files merged into the process-compose file p
// (whose own content is data) and merges them, in process-compose's
// order: for each file named (the file, then the override file or the
// other -f files), the files its extends: chain names, deepest first,
// then the file itself.
func (p *pcFile) readMerged(data []byte) (ast.Node, error) {
	m := &pcMerger{p: p, origins: &pcOrigins{file: map[*token.Token]string{}, dir: map[*token.Token]string{}, item: map[*token.Token]string{}}, read: map[string]string{}}
	named := append([]string{p.file}, p.opts.More...)
	if len(p.opts.More) == 0 && p.opts.Found && !isJobtopName(p.file) {
		all := pcOverrides(p.file)
		if len(all) > 1 {
			p.warn.addAtFile(p.file, 0, 0, "override files", fmt.Sprintf("several override files are beside it (%s): %s is merged, the first of them in process-compose's order, as process-compose does", strings.Join(all, ", "), all[0]))
		}
		if len(all) > 0 {
			named = append(named, all[0])
		}
	}
	for _, f := range named {
		if abs, err := filepath.Abs(f); err == nil {
			m.read[filepath.Clean(abs)] = f
		}
	}
	var merged ast.Node
	for i, f := range named {
		var content []byte
		if i == 0 {
			content = data
		} else {
			if IsProcfile(f) {
				return nil, ErrorList{{File: f, Msg: "is a Procfile: -f given more than once merges process-compose files only"}}
			}
			b, err := readSmallFile(f, maxFileSize)
			if err != nil {
				return nil, jobFileReadError(f, err)
			}
			content = withoutBOM(b)
		}
		docs, err := m.chain(pcSource{file: f, dir: p.dir}, content, nil)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if merged == nil {
				merged = d
				continue
			}
			merged = m.merge(merged, d, nil)
		}
	}
	p.plan.Files = make([]string, len(m.sources))
	for i, s := range m.sources {
		p.plan.Files[i] = s.file
	}
	p.origins = m.origins
	p.errs = append(p.errs, m.errs...)
	return merged, nil
}

// chain reads one file and the files its extends: names before it,
// deepest first. trail is the files that extend this one, for a cycle's
// message.
func (m *pcMerger) chain(src pcSource, data []byte, trail []string) ([]ast.Node, error) {
	body, reader, err := m.p.parseSource(src.file, data)
	if err != nil {
		return nil, err
	}
	switch {
	case hasTopKey(body, "jobs"): // else a process-compose file, or a fragment of one
		return nil, ErrorList{{File: src.file, Msg: "is a jobtop.yaml file (it has jobs:): only process-compose files are merged, with -f given more than once, an override file or extends:"}}
	case isJobtopName(src.file) && !isProcessCompose(body):
		return nil, ErrorList{{File: src.file, Msg: "is a jobtop.yaml file (by its name; it has no processes:): only process-compose files are merged, with -f given more than once, an override file or extends:"}}
	}
	var out []ast.Node
	if ext, ok := topEntry(reader, body, "extends"); ok {
		docs, err := m.extends(src, reader, ext, append(trail, src.file))
		if err != nil {
			return nil, err
		}
		out = docs
	}
	reader.errs = nil
	reader.origins = m.origins // for the paths of list items
	doc := reader.materialize(body, "", 0)
	m.errs = append(m.errs, reader.errs...)
	ast.Walk(tokenVisitor(func(tk *token.Token) {
		m.origins.file[tk] = src.file
		if src.extended {
			m.origins.dir[tk] = src.dir
		}
	}), body)
	m.sources = append(m.sources, src)
	return append(out, doc), nil
}

// extends reads the file an extends: entry names, relative to the file
// it is in, and the files it extends in turn.
func (m *pcMerger) extends(src pcSource, r *nodeReader, e entry, trail []string) ([]ast.Node, error) {
	if isNull(e.value) {
		return nil, nil
	}
	name, ok := r.text(e)
	if ok && name == "" { // as ${UNSET} gives: process-compose extends nothing then
		line, col := position(at(e))
		m.p.warn.addAtFile(src.file, line, col, "extends empty", "extends: is empty, so this file extends nothing (as in process-compose)")
		return nil, nil
	}
	if !ok || strings.TrimSpace(name) == "" {
		if ok {
			r.errorf(at(e), "extends: give the file this one extends")
		}
		return nil, r.errs.err()
	}
	target := name
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(src.file), target)
	}
	abs, err := filepath.Abs(target)
	if err != nil {
		return nil, err
	}
	abs = filepath.Clean(abs)
	if shown, seen := m.read[abs]; seen {
		var msg string
		if i := slices.IndexFunc(trail, func(f string) bool { a, _ := filepath.Abs(f); return filepath.Clean(a) == abs }); i >= 0 {
			msg = fmt.Sprintf("extends: %s extends itself through %s: a cycle", shown, strings.Join(append(slices.Clone(trail[i:]), shown), " -> "))
		} else {
			msg = fmt.Sprintf("extends: %s is already one of the files read: a file is merged once (process-compose refuses it too when both name it the same way)", shown)
		}
		r.errorf(at(e), "%s", msg)
		return nil, r.errs
	}
	m.read[abs] = target
	if IsProcfile(target) {
		r.errorf(at(e), "extends: %s is a Procfile: a process-compose file extends another process-compose file", name)
		return nil, r.errs
	}
	data, err := readSmallFile(target, maxFileSize)
	if err != nil {
		r.errorf(at(e), "extends: %s: %v", name, jobFileReadError(target, err))
		return nil, r.errs
	}
	dir := filepath.Dir(abs)
	return m.chain(pcSource{file: target, dir: dir, extended: true}, withoutBOM(data), trail)
}

// topEntry is a document's top-level entry named key.
func topEntry(r *nodeReader, body ast.Node, key string) (entry, bool) {
	for _, e := range r.mappingEntries(r.resolve(body), "", 0) {
		if e.name == key {
			return e, true
		}
	}
	return entry{}, false
}

// parseSource parses one file of a merged process-compose file: its
// variables expanded first, unless it sets disable_env_expansion.
func (p *pcFile) parseSource(file string, data []byte) (ast.Node, *nodeReader, error) {
	raw, err := parseDocument(file, data)
	if err != nil {
		return nil, nil, err
	}
	r := newNodeReader(file, raw)
	if e, ok := topEntry(r, raw, pcExpansionKey); ok {
		if v, _ := boolValue(e.value); v {
			return raw, r, nil
		}
	}
	text := expandVariables(string(data), p.lookupVar, p.expansionWarner(file))
	body, err := parseDocument(file, []byte(text))
	if err != nil {
		return nil, nil, err
	}
	return body, newNodeReader(file, body), nil
}

// tokenVisitor calls its function with every node's token.
type tokenVisitor func(*token.Token)

func (v tokenVisitor) Visit(n ast.Node) ast.Visitor {
	if n == nil {
		return nil
	}
	if tk := n.GetToken(); tk != nil {
		v(tk)
	}
	if mv, ok := n.(*ast.MappingValueNode); ok && mv.Key != nil {
		if tk := mv.Key.GetToken(); tk != nil {
			v(tk)
		}
	}
	return v
}

// materialize copies a document with its anchors, aliases, tags and
// merge keys looked through, so that it can be merged with another
// file's: the copy holds the file's own scalar nodes.
func (r *nodeReader) materialize(n ast.Node, path string, depth int) ast.Node {
	n = r.resolve(n)
	if n == nil {
		return nil
	}
	if depth >= maxMaterialize {
		r.errorf(n, "%s: nests too deeply", nonEmpty(path, "the document"))
		return nil
	}
	switch t := n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		out := &ast.MappingNode{BaseNode: &ast.BaseNode{}, Start: n.GetToken()}
		if mn, ok := t.(*ast.MappingNode); ok {
			out.Start, out.IsFlowStyle = mn.Start, mn.IsFlowStyle && len(mn.Values) == 0
		}
		for _, e := range r.mappingEntries(n, path, 0) {
			key, ok := e.key.(ast.MapKeyNode)
			if !ok {
				continue
			}
			out.Values = append(out.Values, &ast.MappingValueNode{BaseNode: &ast.BaseNode{}, Start: e.key.GetToken(), Key: key, Value: r.materialize(e.value, e.path, depth+1)})
		}
		return out
	case *ast.SequenceNode:
		out := &ast.SequenceNode{BaseNode: &ast.BaseNode{}, Start: t.Start, End: t.End, IsFlowStyle: t.IsFlowStyle}
		for i, v := range t.Values {
			item := fmt.Sprintf("%s[%d]", path, i)
			if r.origins != nil {
				r.origins.item[positionToken(v)] = item
			}
			out.Values = append(out.Values, r.materialize(v, item, depth+1))
		}
		return out
	}
	return n
}

// pcMergeRule is how a field is merged.
type pcMergeRule int

const (
	ruleFields  pcMergeRule = iota // a mapping merged key by key, deeply
	ruleEntries                    // a mapping merged key by key, each value replaced whole
	ruleEnv                        // environment: merged by variable name
	ruleReplace                    // replaced whole when the later one is not empty
)

// pcRule is how the field at path (its keys from the top) is merged.
func pcRule(path []string) pcMergeRule {
	last := ""
	if len(path) > 0 {
		last = path[len(path)-1]
	}
	switch {
	case len(path) == 1 && last == "environment", len(path) == 3 && path[0] == "processes" && last == "environment":
		return ruleEnv
	case len(path) == 1 && (last == "vars" || last == "env_cmds"),
		len(path) == 3 && path[0] == "processes" && (last == "vars" || last == "depends_on"):
		return ruleEntries
	case len(path) == 3 && path[0] == "processes" && (last == "namespace" || last == "watch"),
		strings.HasPrefix(last, "x-"):
		return ruleReplace
	}
	return ruleFields
}

// merge merges over into base (both materialized), as process-compose
// does for the field at path.
func (m *pcMerger) merge(base, over ast.Node, path []string) ast.Node {
	if (isEmptyNode(over) || isFalseBoolField(path, over)) && !isDisabledFalse(path, over) {
		m.warnDisabledFalse(base, over, path)
		return base
	}
	if base == nil || isNull(base) {
		return over
	}
	m.warnRestartNo(base, over, path)
	rule := pcRule(path)
	if rule == ruleReplace {
		return over
	}
	bm, bIsMap := base.(*ast.MappingNode)
	om, oIsMap := over.(*ast.MappingNode)
	bs, bIsSeq := base.(*ast.SequenceNode)
	osq, oIsSeq := over.(*ast.SequenceNode)
	switch {
	case rule == ruleEnv:
		return m.mergeEnvironment(base, over, path)
	case bIsMap && oIsMap:
		out := &ast.MappingNode{BaseNode: &ast.BaseNode{}, Start: bm.Start, IsFlowStyle: bm.IsFlowStyle && len(om.Values) == 0}
		out.Values = slices.Clone(bm.Values)
		for _, ov := range om.Values {
			name, _ := keyText(ov.Key)
			i := slices.IndexFunc(out.Values, func(bv *ast.MappingValueNode) bool { n, _ := keyText(bv.Key); return n == name })
			if i < 0 {
				out.Values = append(out.Values, ov)
				continue
			}
			value := ov.Value // an entry of depends_on, vars, env_cmds: replaced whole, as mergo sets a map's entries
			if rule == ruleFields {
				value = m.merge(out.Values[i].Value, ov.Value, append(slices.Clone(path), name))
			}
			bv := *out.Values[i]
			bv.Value = value
			out.Values[i] = &bv
		}
		return out
	case bIsSeq && oIsSeq:
		out := *bs
		out.Values = append(slices.Clone(bs.Values), osq.Values...)
		return &out
	}
	return over
}

// warnRestartNo warns where a later file's availability.restart: "no"
// switches off an earlier file's restarts: jobtop does as it says, but
// process-compose's "no" is its empty value, which its merge skips, so
// the earlier policy stays there.
func (m *pcMerger) warnRestartNo(base, over ast.Node, path []string) {
	if len(path) != 4 || path[0] != "processes" || path[2] != "availability" || path[3] != "restart" {
		return
	}
	was, _ := scalarText(base)
	if now, _ := scalarText(over); now != "no" || was == "" || was == "no" {
		return
	}
	line, col := position(over)
	m.p.warn.addAtFile(cmp.Or(m.origins.fileOf(over), m.p.file), line, col, "restart no merged",
		fmt.Sprintf("processes.%s.availability.restart: \"no\" switches off the earlier file's %q here; process-compose keeps %q (its merge skips \"no\")", path[1], was, was))
}

// warnDisabledFalse warns where a process's disabled: false is merged
// over disabled: true: mergo skips false, so the process stays disabled,
// in process-compose as in jobtop, which is seldom what it was written
// for (process-compose's issue 177); is_disabled: "false" enables it.
func (m *pcMerger) warnDisabledFalse(base, over ast.Node, path []string) {
	if len(path) != 3 || path[0] != "processes" || path[2] != "disabled" {
		return
	}
	b, isBool := boolValue(base)
	o, overBool := boolValue(over)
	if !isBool || !overBool || !b || o {
		return
	}
	line, col := position(over)
	m.p.warn.addAtFile(cmp.Or(m.origins.fileOf(over), m.p.file), line, col, "disabled false merged",
		fmt.Sprintf("processes.%s.disabled: false does not enable it: %s disables it, and a merge keeps that (process-compose's skips false too); write is_disabled: \"false\" to enable it", path[1], cmp.Or(m.earlier, m.origins.fileOf(base), "an earlier file")))
}

// isDisabledFalse says whether over is a process's is_disabled: false,
// which is not empty to mergo: process-compose reads is_disabled as a
// string, and "false" replaces the earlier file's "true" (and then
// enables the process).
func isDisabledFalse(path []string, over ast.Node) bool {
	b, ok := over.(*ast.BoolNode)
	return ok && !b.Value && len(path) == 3 && path[0] == "processes" && path[2] == "is_disabled"
}

// pcBoolFields are process-compose's true/false fields, wherever they
// are (a process, availability, shutdown, schedule, the top level).
var pcBoolFields = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(`disabled is_tty is_interactive is_daemon is_foreground
		is_elevated is_dotenv_disabled is_template_disabled disable_ansi_colors truncate_log
		exit_on_end exit_on_skipped parent_only run_on_start
		is_strict ordered_shutdown disable_env_expansion is_tui_disabled`) {
		m[f] = true
	}
	return m
})

// isFalseBoolField says whether over is YAML 1.1's no, off or n in a
// true/false field: false to process-compose (yaml.v3 reads it so), and
// so empty to its merge.
func isFalseBoolField(path []string, over ast.Node) bool {
	if len(path) == 0 || !pcBoolFields()[path[len(path)-1]] {
		return false
	}
	v, ok := boolValue(over)
	return ok && !v
}

// isEmptyNode says whether a value leaves the earlier file's as it is, as
// mergo's empty values do: null, false, 0, "", an empty list or mapping.
func isEmptyNode(n ast.Node) bool {
	switch t := n.(type) {
	case nil, *ast.NullNode:
		return true
	case *ast.BoolNode:
		return !t.Value
	case *ast.IntegerNode:
		return fmt.Sprint(t.Value) == "0"
	case *ast.FloatNode:
		return t.Value == 0
	case *ast.StringNode:
		return t.Value == ""
	case *ast.MappingNode:
		return len(t.Values) == 0
	case *ast.SequenceNode:
		return len(t.Values) == 0
	}
	return false
}

// mergeEnvironment merges two environments by variable name, the later
// value winning: as a list of NAME=VALUE when both are lists, as a
// mapping when both are mappings, and as a list when they differ (a
// mapping's entries becoming NAME=VALUE items, their values read as one
// file's are). An environment that is neither is kept as it is, to be
// refused when read, as it is in one file.
func (m *pcMerger) mergeEnvironment(base, over ast.Node, path []string) ast.Node {
	bm, bIsMap := base.(*ast.MappingNode)
	om, oIsMap := over.(*ast.MappingNode)
	_, bIsSeq := base.(*ast.SequenceNode)
	_, oIsSeq := over.(*ast.SequenceNode)
	switch {
	case bIsMap && oIsMap:
		return m.merge(bm, om, []string{"vars"}) // entries replaced whole
	case !oIsMap && !oIsSeq:
		return over
	case !bIsMap && !bIsSeq:
		return base
	}
	where := strings.Join(path, ".")
	items := func(n ast.Node) []ast.Node {
		if s, ok := n.(*ast.SequenceNode); ok {
			return s.Values
		}
		var out []ast.Node
		for _, mv := range n.(*ast.MappingNode).Values {
			if it := m.envItem(mv, where); it != nil {
				out = append(out, it)
			}
		}
		return out
	}
	name := func(n ast.Node) string {
		if s, ok := n.(*ast.StringNode); ok {
			if name, _, found := strings.Cut(s.Value, "="); found {
				return name
			}
		}
		return ""
	}
	out := &ast.SequenceNode{BaseNode: &ast.BaseNode{}, Start: base.GetToken()}
	if s, ok := base.(*ast.SequenceNode); ok {
		out.Start = s.Start
	}
	out.Values = slices.Clone(items(base))
	for _, v := range items(over) {
		n := name(v)
		named := func(b ast.Node) bool { return n != "" && name(b) == n }
		if i := slices.IndexFunc(out.Values, named); i >= 0 {
			// every earlier item of the name goes (a list may repeat
			// it): process-compose's map keeps the last value only
			out.Values = append(out.Values[:i+1], slices.DeleteFunc(out.Values[i+1:], named)...)
			out.Values[i] = v
			continue
		}
		out.Values = append(out.Values, v)
	}
	return out
}

// envItem turns a mapping's NAME: VALUE into a NAME=VALUE list item, at
// the entry's place in its file, its value read as one file's mapping
// is (a block scalar's text, null as ""). A value that is not text is
// refused as it is in one file (where is the environment's path), and
// gives no item.
func (m *pcMerger) envItem(mv *ast.MappingValueNode, where string) ast.Node {
	name, _ := keyText(mv.Key)
	value := ""
	if mv.Value != nil && !isNull(mv.Value) {
		s, ok := scalarText(mv.Value)
		if !ok {
			line, col := position(mv.Value)
			if mn, ok := mv.Value.(*ast.MappingNode); ok && mn.Start != nil && mn.Start.Type == token.MappingStartType {
				line, col = mn.Start.Position.Line, mn.Start.Position.Column // at its {, as one file's is
			}
			m.errs = append(m.errs, &Error{File: cmp.Or(m.origins.fileOf(mv.Value), m.p.file), Line: line, Col: col, Msg: fmt.Sprintf("%s.%s: want a string, got %s", where, name, kind(mv.Value))})
			return nil
		}
		value = s
	}
	keyTk := mv.Key.GetToken()
	pos := *keyTk.Position
	tk := token.New(name+"="+value, name+"="+value, &pos)
	tk.Type = token.StringType
	m.origins.file[tk] = m.origins.file[keyTk]
	m.origins.item[tk] = where // as one file's mapping is named
	if d, ok := m.origins.dir[keyTk]; ok {
		m.origins.dir[tk] = d
	}
	return &ast.StringNode{BaseNode: &ast.BaseNode{}, Token: tk, Value: name + "=" + value}
}
