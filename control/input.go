package control

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"

	"jobtop/jobs"
)

// MaxInputBytes bounds one input request's bytes: more than a paste, less
// than what would tie the job's terminal up for long.
const MaxInputBytes = 64 << 10

// InputRequest is the body of POST /v1/jobs/{id}/input: the bytes to
// write to a job's terminal or stdin, as text (UTF-8, taken as is: "\r"
// is enter on a terminal, "\u0003" ctrl+c) or as base64, one of the two;
// then, with EOF, the end of its input (jobs.Manager.CloseInput).
type InputRequest struct {
	Text   *string `json:"text,omitempty"`
	Base64 string  `json:"base64,omitempty"`
	EOF    bool    `json:"eof,omitempty"`
}

// InputResponse answers an input request: how many bytes the job got.
type InputResponse struct {
	Bytes int `json:"bytes"`
}

// ResizeRequest is the body of POST /v1/jobs/{id}/resize: a TTY job's
// new terminal size.
type ResizeRequest struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
}

func (InputRequest) emptyBody() string {
	return `give the input as {"text": "y\n"} or {"base64": "eQo="}, or {"eof": true} to end it`
}

func (ResizeRequest) emptyBody() string {
	return `give the size as {"cols": 120, "rows": 40}`
}

// bytes checks the request and returns what to write.
func (r InputRequest) bytes() ([]byte, error) {
	switch {
	case r.Text != nil && r.Base64 != "":
		return nil, badRequest("give text or base64, not both")
	case r.Text != nil:
		return []byte(*r.Text), nil
	case r.Base64 != "":
		b, err := base64.StdEncoding.DecodeString(r.Base64)
		if err != nil {
			return nil, badRequest("base64: %v", err)
		}
		return b, nil
	case r.EOF:
		return nil, nil
	}
	return nil, badRequest(`give the input as {"text": "y\n"} or {"base64": "eQo="}, or {"eof": true} to end it`)
}

// decodeBody reads one JSON object of type T from a request body.
func decodeBody[T any](w http.ResponseWriter, r *http.Request, limit int64) (T, error) {
	var v T
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	dec, err := strictDecoder(r.Body)
	if err != nil {
		return v, jsonError(err, v)
	}
	if err := dec.Decode(&v); err != nil {
		return v, jsonError(err, v)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return v, badRequest("malformed JSON: the body must hold one object and nothing after it")
	}
	return v, nil
}

func (s *Server) handleInput(w http.ResponseWriter, r *http.Request) {
	id, err := s.pathID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	// base64 takes 4 bytes for 3, plus the JSON around it.
	req, err := decodeBody[InputRequest](w, r, MaxInputBytes*4/3+1024)
	if err != nil {
		writeError(w, err)
		return
	}
	b, err := req.bytes()
	if err == nil && len(b) > MaxInputBytes {
		err = badRequest("input is %d bytes; at most %d at once", len(b), MaxInputBytes)
	}
	if err == nil {
		err = s.mgr.Input(id, b)
	}
	if err == nil && req.EOF {
		err = s.mgr.CloseInput(id)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, InputResponse{Bytes: len(b)})
}

func (s *Server) handleResize(w http.ResponseWriter, r *http.Request) {
	id, err := s.pathID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	req, err := decodeBody[ResizeRequest](w, r, 1024)
	if err != nil {
		writeError(w, err)
		return
	}
	if req.Cols == 0 && req.Rows == 0 {
		// {} or fields misspelt elsewhere: not a size of 0x0 asked for.
		writeError(w, badRequest("no size given: %s", req.emptyBody()))
		return
	}
	if err := s.mgr.Resize(id, req.Cols, req.Rows); err != nil {
		var invalid *jobs.InvalidActionError
		var notFound *jobs.NotFoundError
		if !errors.As(err, &invalid) && !errors.As(err, &notFound) {
			err = badRequest("%v", err)
		}
		writeError(w, err)
		return
	}
	info, err := s.mgr.Get(id)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// SendInput writes b to a job's terminal or stdin, in requests of at
// most MaxInputBytes.
// A request that fails after others went says how many bytes went before.
func (c *Client) SendInput(ctx context.Context, id jobs.ID, b []byte) error {
	total, sent := len(b), 0
	for first := true; first || len(b) > 0; first = false {
		n := min(len(b), MaxInputBytes)
		req := InputRequest{Base64: base64.StdEncoding.EncodeToString(b[:n])}
		if n == 0 {
			empty := ""
			req = InputRequest{Text: &empty}
		}
		var resp InputResponse
		if err := c.call(ctx, http.MethodPost, jobPath(id, "input"), nil, req, &resp); err != nil {
			if sent > 0 {
				return fmt.Errorf("%w (before this request, %d of the %d bytes had gone, %d at a time)", err, sent, total, MaxInputBytes)
			}
			return err
		}
		b = b[n:]
		sent += n
	}
	return nil
}

// CloseInput ends a job's input: EOF on a stdin pipe, ctrl+d on a
// terminal.
func (c *Client) CloseInput(ctx context.Context, id jobs.ID) error {
	var resp InputResponse
	return c.call(ctx, http.MethodPost, jobPath(id, "input"), nil, InputRequest{EOF: true}, &resp)
}

// ResizeJob sets a TTY job's terminal size.
func (c *Client) ResizeJob(ctx context.Context, id jobs.ID, cols, rows int) (jobs.Info, error) {
	var info jobs.Info
	err := c.call(ctx, http.MethodPost, jobPath(id, "resize"), nil, ResizeRequest{Cols: cols, Rows: rows}, &info)
	return info, err
}

// Input writes b to a job's terminal or stdin (the engine's face of
// SendInput, for an attached TUI).
func (c *Client) Input(id jobs.ID, b []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	return c.SendInput(ctx, id, b)
}

// Resize sets a TTY job's terminal size (the engine's face of ResizeJob).
func (c *Client) Resize(id jobs.ID, cols, rows int) error {
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	info, err := c.ResizeJob(ctx, id, cols, rows)
	if err == nil {
		c.remember(info)
	}
	return err
}

// Input writes b to a job's terminal or stdin on its host.
func (h *Hosts) Input(id jobs.ID, b []byte) error {
	return h.act(id, func(c *Client, id jobs.ID) error { return c.Input(id, b) })
}

// Resize sets a TTY job's terminal size on its host.
func (h *Hosts) Resize(id jobs.ID, cols, rows int) error {
	return h.act(id, func(c *Client, id jobs.ID) error { return c.Resize(id, cols, rows) })
}
