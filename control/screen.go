package control

import (
	"context"
	"net/http"
	"net/url"

	"jobtop/jobs"
	"jobtop/termtext"
	"jobtop/vtscreen"
)

// ScreenResponse answers GET /v1/jobs/{id}/screen: the job's screen as a
// terminal would show it. Screen says it is a full-screen program's,
// drawn by the terminal emulator (screen mode); otherwise the lines are
// the newest of its output. Lines holds every row, Rows of them, blank
// ones as "", so that a row's index is its row on the screen (Shown is
// the rows a person is shown); each is plain text, trailing blanks
// trimmed. ANSI (with ansi=1) is the same rows with SGR colour sequences
// and nothing else. The cursor is at column CursorX of row CursorY, from
// 0. Seq changes when the screen may have.
type ScreenResponse struct {
	Lines         []string   `json:"lines"`
	ANSI          []string   `json:"ansi,omitempty"`
	Cols          int        `json:"cols"`
	Rows          int        `json:"rows"`
	CursorX       int        `json:"cursor_x"`
	CursorY       int        `json:"cursor_y"`
	CursorVisible bool       `json:"cursor_visible"`
	Screen        bool       `json:"screen"`
	AltScreen     bool       `json:"alt_screen"`
	CatchingUp    bool       `json:"catching_up"`
	Modes         Modes      `json:"modes"`
	Seq           uint64     `json:"seq"`
	State         jobs.State `json:"state"`
}

// Modes are the input modes a full-screen program asked for (see
// vtscreen.InputModes): how keys are to be sent to it.
type Modes struct {
	AppCursor      bool `json:"app_cursor,omitempty"`
	BracketedPaste bool `json:"bracketed_paste,omitempty"`
	Mouse          int  `json:"mouse,omitempty"`
	MouseSGR       bool `json:"mouse_sgr,omitempty"`
}

func (s *Server) handleScreen(w http.ResponseWriter, r *http.Request) {
	id, err := s.pathID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ansi, err := boolParam(r, "ansi")
	if err != nil {
		writeError(w, err)
		return
	}
	info, err := s.mgr.Get(id)
	if err != nil {
		writeError(w, err)
		return
	}
	snap, err := s.mgr.Screen(id)
	if err != nil {
		writeError(w, err)
		return
	}
	resp := screenResponse(snap, info)
	if !ansi {
		resp.ANSI = nil
	}
	writeJSON(w, http.StatusOK, resp)
}

func screenResponse(snap vtscreen.Snapshot, info jobs.Info) ScreenResponse {
	return ScreenResponse{
		Lines: snap.Lines, ANSI: snap.ANSI, Cols: snap.Cols, Rows: snap.Rows,
		CursorX: snap.CursorX, CursorY: snap.CursorY, CursorVisible: snap.CursorVisible,
		Screen: info.Screen, AltScreen: snap.AltScreen, CatchingUp: info.CatchingUp,
		Modes: Modes{AppCursor: snap.Modes.AppCursor, BracketedPaste: snap.Modes.BracketedPaste,
			Mouse: int(snap.Modes.Mouse), MouseSGR: snap.Modes.MouseSGR},
		Seq: snap.Seq, State: info.State,
	}
}

// Shown is the rows a terminal shows of the screen, as jobtop screen
// prints them: from the top down to the last row that shows something,
// the blank rows below it left out and those above it kept. A row shows
// something when it holds text, with ansi also when it holds coloured
// blanks (a status bar), and, for a full-screen program, when it holds
// the cursor while the cursor is visible (a prompt on a row of its own).
// With ansi the rows are ANSI's, colours kept.
func (r ScreenResponse) Shown(ansi bool) []string {
	rows := r.Lines
	if ansi && len(r.ANSI) == len(r.Lines) {
		rows = r.ANSI
	} else {
		ansi = false
	}
	last := -1
	if r.Screen && r.CursorVisible {
		last = r.CursorY
	}
	for i, l := range rows {
		if ansi && termtext.Width(l) > 0 || !ansi && l != "" {
			last = max(last, i)
		}
	}
	return rows[:min(last+1, len(rows))]
}

// Snapshot is the answer as the emulator's frame.
func (r ScreenResponse) Snapshot() vtscreen.Snapshot {
	return vtscreen.Snapshot{
		Lines: r.Lines, ANSI: r.ANSI, Cols: r.Cols, Rows: r.Rows,
		CursorX: r.CursorX, CursorY: r.CursorY, CursorVisible: r.CursorVisible,
		AltScreen: r.AltScreen, Seq: r.Seq,
		Modes: vtscreen.InputModes{AppCursor: r.Modes.AppCursor, BracketedPaste: r.Modes.BracketedPaste,
			Mouse: vtscreen.MouseTracking(r.Modes.Mouse), MouseSGR: r.Modes.MouseSGR},
	}
}

// ReadScreen reads a job's screen; with ansi, the rows with colours too.
func (c *Client) ReadScreen(ctx context.Context, id jobs.ID, ansi bool) (ScreenResponse, error) {
	var q url.Values
	if ansi {
		q = url.Values{"ansi": {"1"}}
	}
	var resp ScreenResponse
	err := c.call(ctx, http.MethodGet, jobPath(id, "screen"), q, nil, &resp)
	return resp, err
}

// Screen is a job's screen, colours included: the engine's face of
// ReadScreen, for an attached TUI, answered from the mirror's copy (see
// screenCache) so that it does not wait on the instance.
func (c *Client) Screen(id jobs.ID) (vtscreen.Snapshot, error) {
	if m, err := c.attached(); err == nil {
		return m.screen(id)
	}
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	resp, err := c.ReadScreen(ctx, id, true)
	if err != nil {
		return vtscreen.Snapshot{}, err
	}
	return resp.Snapshot(), nil
}

// Screen is a job's screen on its host.
func (h *Hosts) Screen(id jobs.ID) (vtscreen.Snapshot, error) {
	j, err := h.job(id)
	if err != nil {
		return vtscreen.Snapshot{}, err
	}
	snap, err := j.host.client.Screen(j.id)
	return snap, hostActionError(j, err)
}
