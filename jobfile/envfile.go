package jobfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/goccy/go-yaml/ast"

	"jobtop/jobs"
)

// maxEnvFileSize bounds an env file; anything larger is surely not one.
const maxEnvFileSize = 1 << 20

// readEnvFiles reads env_file: one path or a list of them, later files
// winning.
func (y *yamlFile) readEnvFiles(e entry) map[string]string {
	items := []entry{e}
	if seq, ok := e.value.(*ast.SequenceNode); ok {
		items = items[:0]
		for i, v := range seq.Values {
			items = append(items, entry{key: v, value: y.resolve(v), path: fmt.Sprintf("%s[%d]", e.path, i)})
		}
	}
	var layers []map[string]string
	for _, item := range items {
		p, ok := y.text(item)
		if !ok {
			continue
		}
		layers = append(layers, y.readEnvFile(item, p))
	}
	return mergeEnv(layers...)
}

// envFileNames are the files an env_file entry names, as people read them.
func (y *yamlFile) envFileNames(e entry) []string {
	items := []ast.Node{e.value}
	if seq, ok := e.value.(*ast.SequenceNode); ok {
		items = seq.Values
	}
	var out []string
	for _, v := range items {
		if s, ok := scalarText(y.resolve(v)); ok {
			out = append(out, y.display(s))
		}
	}
	return out
}

func (y *yamlFile) readEnvFile(e entry, given string) map[string]string {
	path := y.abs(given)
	if env, done := y.envFiles[path]; done {
		return env
	}
	data, err := readSmallFile(path, maxEnvFileSize)
	if err != nil {
		y.errorf(e.value, "%s: %q %v", e.path, given, err)
		y.envFiles[path] = nil
		return nil
	}
	env, errs := parseEnvFile(y.display(given), data, y.expandEnvFiles)
	y.errs = append(y.errs, errs...)
	y.envFiles[path] = env
	return env
}

// readSmallFile reads a regular file of at most limit bytes; it looks
// before it opens, so that a FIFO or a device is never opened. Its errors
// read after the file's name: "does not exist".
func readSmallFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errors.New("does not exist")
	case err != nil:
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, pe.Err
		}
		return nil, err
	case !st.Mode().IsRegular():
		return nil, errors.New("is not a regular file")
	case st.Size() > limit:
		return nil, &fileTooLargeError{limit: limit}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// fileTooLargeError is readSmallFile's refusal of a file over its
// limit.
type fileTooLargeError struct{ limit int64 }

func (e *fileTooLargeError) Error() string { return "is larger than " + jobs.FormatBytes(e.limit) }

// utf8BOM is the byte order mark some Windows editors put first in a
// UTF-8 file.
const utf8BOM = "\ufeff"

// withoutBOM is data without a leading UTF-8 byte order mark, which no
// format jobtop reads means as text (dotenv, foreman and YAML skip it).
func withoutBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte(utf8BOM)) }
