package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxLine bounds one line of input, as the SDK's stdio transport does.
const maxLine = sdk.DefaultMaxLineLength

// StdioTransport is MCP over stdin and stdout, one JSON-RPC message a line,
// that outlives a line it cannot read: each is answered with a JSON-RPC
// error (parse error, invalid request) and dropped, and the session goes
// on. The SDK's own ends the session at the first such line, and one
// stray line from an agent (a "jsonrpc": "1.0", a line that is not JSON)
// ended jobtop mcp, and every tool with it.
//
// The end of stdin ends the session once every request read before it
// is answered (inputend.go), as printf '...' | jobtop mcp expects.
func StdioTransport() sdk.Transport { return newLineTransport(os.Stdin, os.Stdout, inputEndGrace) }

// newLineTransport is StdioTransport over in and out, holding the end of
// in back for the answers in flight at most grace.
func newLineTransport(in io.Reader, out io.Writer, grace time.Duration) sdk.Transport {
	w := &lockedWriter{w: out}
	r, pw := io.Pipe()
	go func() { pw.CloseWithError(passMessages(in, pw, w)) }()
	t := answeringTransport{io: &sdk.IOTransport{Reader: r, Writer: nopCloser{w}}, grace: grace}
	t.out, _ = out.(*os.File)
	return t
}

// passMessages copies the lines of in that are JSON-RPC messages (or
// batches of them) to to, and answers every other line on w.
func passMessages(in io.Reader, to io.Writer, w io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			if reply := refusal(line); reply != nil {
				if _, werr := w.Write(reply); werr != nil {
					return werr
				}
			} else if _, werr := to.Write(line); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// readLine reads a line with its newline; one longer than maxLine is
// returned cut to maxLine+1 bytes (refusal says it is too long) with the
// rest of it skipped.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		if len(line) <= maxLine {
			line = append(line, part[:min(len(part), maxLine+1-len(line))]...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// refusal is the JSON-RPC error answering line, nil when it is a message
// to pass on.
func refusal(line []byte) []byte {
	if len(line) > maxLine {
		return errorReply(nil, jsonrpc.CodeInvalidRequest, "message longer than 16 MiB")
	}
	if !json.Valid(line) {
		return errorReply(nil, jsonrpc.CodeParseError, "not JSON")
	}
	if t := bytes.TrimSpace(line); t[0] == '[' {
		// The SDK ends the session at a batch from MCP 2025-06-18 on,
		// which has none, and at one with an id twice: none is taken.
		return errorReply(nil, jsonrpc.CodeInvalidRequest, "a batch: send one message a line (MCP has no batches since 2025-06-18)")
	}
	var obj struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(line, &obj); err != nil {
		return errorReply(nil, jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0 message: not an object")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return errorReply(obj.ID, jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0 message: "+err.Error())
	}
	return nil
}

// errorReply is a JSON-RPC error response line, for the request id (null
// when it has none that can be told).
func errorReply(id json.RawMessage, code int, msg string) []byte {
	var v any
	if json.Unmarshal(id, &v) != nil {
		v = nil
	}
	switch v.(type) {
	case string, float64, nil:
	default:
		v = nil // an id is a string or a number
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": v,
		"error": map[string]any{"code": code, "message": msg},
	})
	return append(b, '\n')
}

// lockedWriter writes each message whole: the SDK's replies and the
// refusals share stdout.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
