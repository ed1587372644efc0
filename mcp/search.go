package mcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"jobtop/control"
	"jobtop/jobs"
)

// Bounds of search_output.
const (
	defaultMatches = 50
	maxMatches     = 500
	// matchTextBytes cuts each matching line around its match.
	matchTextBytes = 400
	// searchBytes bounds the matching text of one answer.
	searchBytes = 16 << 10
	// searchPage is how many lines one read of the API brings.
	searchPage = 1000
)

// SearchInput is search_output's arguments.
type SearchInput struct {
	ID         *JobRef `json:"id,omitempty" jsonschema:"the job to search; leave it out to search every job"`
	Pattern    string  `json:"pattern" jsonschema:"a regular expression (Go RE2 syntax); (?i) ignores case"`
	MaxMatches int     `json:"max_matches,omitempty" jsonschema:"at most this many matching lines (default 50, at most 500)"`
	InLog      bool    `json:"in_log,omitempty" jsonschema:"search the log files (every line each job wrote, up to the log's cap, which keeps the newest) instead of what memory holds"`
}

// SearchMatch is one matching line.
type SearchMatch struct {
	Job    int    `json:"job"`
	Name   string `json:"name"`
	Line   uint64 `json:"line" jsonschema:"in memory: the line's cursor (read_output with cursor line-1 reads from it); in a log file: its line number"`
	Stream string `json:"stream,omitempty" jsonschema:"stdout, stderr, or meta for jobtop's own notes, as the API names them; absent in log files, which hold both"`
	File   string `json:"file,omitempty" jsonschema:"the log file Line is in, when the job's log rotated into two files"`
	Text   string `json:"text"`
}

// SearchResult is search_output's answer.
type SearchResult struct {
	Searched string        `json:"searched" jsonschema:"memory or log"`
	Matches  []SearchMatch `json:"matches"`
	More     bool          `json:"more" jsonschema:"the search stopped at max_matches (or the size cap): there may be more matches"`
	Note     string        `json:"note,omitempty"`
}

func (s *Server) searchOutput(ctx context.Context, _ *sdk.CallToolRequest, in SearchInput) (string, SearchResult, error) {
	if in.Pattern == "" {
		return "", SearchResult{}, errors.New("pattern is empty: give a regular expression to look for, e.g. \"error|panic\"")
	}
	re, err := compilePattern("pattern", in.Pattern)
	if err != nil {
		return "", SearchResult{}, err
	}
	var notes []string
	limit := capArg(in.MaxMatches, defaultMatches, maxMatches, "max_matches", &notes)
	var targets []jobs.Info
	if in.ID != nil {
		info, err := s.resolve(ctx, *in.ID)
		if err != nil {
			return "", SearchResult{}, err
		}
		targets = []jobs.Info{info}
	} else if targets, err = s.opts.Client.Jobs(ctx); err != nil {
		return "", SearchResult{}, s.apiError(err)
	}
	f := &finder{re: re, limit: limit, budget: searchBytes, res: SearchResult{Searched: "memory", Matches: []SearchMatch{}}}
	if in.InLog {
		f.res.Searched = "log"
	}
	for _, j := range targets {
		if f.full() {
			break
		}
		if in.InLog {
			err = f.searchLog(ctx, j)
		} else {
			err = f.searchMemory(ctx, s.opts.Client, j)
		}
		if err != nil && !control.IsNotFound(err) { // a job removed meanwhile is skipped
			if ctx.Err() != nil {
				return "", SearchResult{}, ctx.Err()
			}
			return "", SearchResult{}, s.apiError(err)
		}
	}
	if in.InLog {
		for _, j := range targets {
			if j.LogDropped > 0 {
				notes = append(notes, fmt.Sprintf("job %d's log file lost %d bytes it could not write (a full disk?): lines may be missing from it", j.ID, j.LogDropped))
			}
		}
	}
	switch {
	case f.res.More:
		notes = append(notes, fmt.Sprintf("stopped at %s: there may be more; narrow the pattern or search one job", plural(len(f.res.Matches), "match")))
	case !in.InLog:
		notes = append(notes, "searched what memory holds; in_log: true also searches older output")
	}
	f.res.Note = strings.Join(notes, "; ")
	return f.res.text(len(targets)), f.res, nil
}

// finder collects matches within its limits.
type finder struct {
	re     *regexp.Regexp
	limit  int
	budget int
	res    SearchResult
}

func (f *finder) full() bool { return f.res.More }

// add records a match; false once the answer is full.
func (f *finder) add(m SearchMatch) bool {
	if len(f.res.Matches) >= f.limit || len(m.Text) > f.budget {
		f.res.More = true
		return false
	}
	f.budget -= len(m.Text)
	f.res.Matches = append(f.res.Matches, m)
	return true
}

// searchMemory pages through what memory holds of job j.
func (f *finder) searchMemory(ctx context.Context, c *control.Client, j jobs.Info) error {
	var cursor uint64
	for {
		resp, err := c.ReadOutput(ctx, j.ID, control.OutputQuery{Cursor: cursor, Max: searchPage})
		if err != nil {
			return err
		}
		for _, l := range resp.Lines {
			text := plain(l.Text)
			if loc := f.re.FindStringIndex(text); loc != nil {
				ol := outputLine(l, maxLineBytes)
				if !f.add(SearchMatch{Job: int(j.ID), Name: j.Name, Line: l.Seq, Stream: ol.Stream, Text: around(text, loc)}) {
					return nil
				}
			}
		}
		// Stop at the lines the job had when the search began: a job
		// writing flat out must not keep it going.
		if len(resp.Lines) == 0 || resp.NextCursor <= cursor || resp.NextCursor >= j.Lines {
			return nil
		}
		cursor = resp.NextCursor
	}
}

// maxLogLine bounds what is read of one log file line.
const maxLogLine = 64 << 10

// searchLog reads job j's log files, oldest first (the log rotates at
// its cap: the older part is LogPath.1), line by line.
func (f *finder) searchLog(ctx context.Context, j jobs.Info) error {
	files := j.LogFiles
	if len(files) == 0 && j.LogPath != "" {
		files = []string{j.LogPath}
	}
	var missing error
	found := false
	for _, path := range files {
		if f.full() {
			return nil
		}
		shown := ""
		if len(files) > 1 {
			shown = path
		}
		err := f.searchLogFile(ctx, j, path, shown)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Gone for a moment while the log rotates; every one gone
			// is a log on another machine.
			missing = err
		case err != nil:
			return err
		default:
			found = true
		}
	}
	if !found && missing != nil {
		return fmt.Errorf("cannot read job %d's log file here (%v); is the jobtop instance on another machine?", j.ID, missing)
	}
	return nil
}

// searchLogFile searches one log file of job j; shown is the file as
// matches name it ("" when the job has one).
func (f *finder) searchLogFile(ctx context.Context, j jobs.Info, path, shown string) error {
	file, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return fmt.Errorf("cannot read job %d's log file here (%v); is the jobtop instance on another machine?", j.ID, err)
	}
	defer file.Close()
	// What the file holds as it is opened, and only a file: a device or
	// a FIFO in its place (a link to /dev/full) would never end.
	st, err := file.Stat()
	if err != nil {
		return fmt.Errorf("reading job %d's log file: %w", j.ID, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("job %d's log file %s is not a regular file (%v): not searched", j.ID, path, st.Mode().Type())
	}
	r := bufio.NewReaderSize(io.LimitReader(file, st.Size()), maxLogLine)
	var n uint64
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			n++
			text := plain(strings.TrimRight(string(line), "\r\n"))
			if loc := f.re.FindStringIndex(text); loc != nil {
				if !f.add(SearchMatch{Job: int(j.ID), Name: j.Name, Line: n, File: shown, Text: around(text, loc)}) {
					return nil
				}
			}
			if errors.Is(err, bufio.ErrBufferFull) { // the rest of a very long line
				for errors.Is(err, bufio.ErrBufferFull) {
					_, err = r.ReadSlice('\n')
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading job %d's log file: %w", j.ID, err)
		}
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// around cuts a long line to matchTextBytes around its match at loc.
func around(text string, loc []int) string {
	if len(text) <= matchTextBytes {
		return text
	}
	start := max(0, loc[0]-matchTextBytes/4)
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	s := cutText(text[start:], matchTextBytes)
	if start > 0 {
		s = "…" + s
	}
	return s
}

// text is the answer's text form: "3 web:12: the line".
func (r SearchResult) text(jobsSearched int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s in the %s of %s", plural(len(r.Matches), "match"), r.Searched, plural(jobsSearched, "job"))
	b.WriteString(" (job name:line: text)\n")
	for _, m := range r.Matches {
		if m.File != "" {
			fmt.Fprintf(&b, "%d %s:%s:%d: ", m.Job, m.Name, m.File, m.Line)
		} else {
			fmt.Fprintf(&b, "%d %s:%d: ", m.Job, m.Name, m.Line)
		}
		b.WriteString(streamMark(m.Stream) + m.Text + "\n")
	}
	if r.Note != "" {
		b.WriteString("[" + r.Note + "]")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
