// Package ui is jobtop's terminal interface: a Bubble Tea program over a
// job engine. It holds view state only (the job table's selection, the
// output pane's scroll position, focus, layout, prompts) and never owns
// output bytes: it reads the lines it is about to draw from the job's
// output store through the Engine interface, so the in-process
// *jobs.Manager and a client of another instance's local API can both
// drive it.
//
// It imports jobs (for its types), keymap and styles; it must not import
// cmd or control, and nothing in jobs may import it.
//
// Decisions worth knowing:
//   - Job events reach Update through one command that waits on the
//     engine's subscription and is issued again after each batch, so there
//     is at most one output message per frame however fast jobs write.
//   - Actions on jobs (start, stop, kill, restart, remove) run as commands
//     off the Update goroutine and report back with actionDoneMsg; errors
//     show in the status bar.
//   - The output pane reads only the lines it shows (Tail, ReadAfter), lays
//     them out with layoutLine (sanitized, cut or wrapped) when they change,
//     and View only joins rows: a frame's cost does not grow with a job's
//     output.
//   - The job table draws its visible rows only, keeps the selection on the
//     same job as rows come and go, and drops columns (LINES, PID, EXIT,
//     TIME) as the terminal narrows, keeping the last output line longest.
//   - Panes read through a lineSource: one job's store (keyed by sequence
//     number), every job's stores merged by jobs.Line.Arrival (the "all"
//     view, a window per job read and merged per refresh), or a search's
//     matches (the filter). Keys need not be contiguous; a pane never
//     copies more lines than it shows.
//   - The split view shows up to four panes, each pinned to a job with its
//     own scroll and follow, in boxes whose top edge is the pane header
//     (the focused box is drawn heavy, so focus shows without colour).
//     When the boxes would be smaller than their minimum, fewer are drawn
//     and the status bar says "split 2/4"; the table keeps a smaller share
//     of the rows. Global actions (x, X, r, d, o) apply to the focused
//     pane's job, else to the selected row; with jobs marked and the table
//     focused, x, X, r and d apply to every marked job the action fits,
//     after a yes/no question that says how many (bulkConfirm).
//   - Searches scan the output held in memory off the Update goroutine
//     (scanCmd: bounded ReadAfter chunks) and keep only the matches' keys;
//     new output is scanned as it arrives, one scan at a time per search,
//     and so are older lines that appear before the oldest searched (an
//     attached TUI's mirror fetches them behind the newest).
//     Matching is done on the text as drawn (escapes removed, tabs
//     expanded), so highlights line up with what is on screen.
//   - A job whose output arrives, or that ends, while none of its output
//     is drawn gets a mark on its row ("•", "!") until it is shown; ends
//     always raise a notice, and failures ring the bell when it is on
//     (BEL written to Config.Terminal by a command).
//   - Notices last as long as they are news (notices.go): a job's news
//     and errors until the next notice, the confirmation of a key's
//     action until the next key or noticeLife, the split's until the
//     split changes.
//   - Quitting with jobs running asks first. In local mode the jobs are
//     then stopped with their grace rules and jobtop exits once none is
//     left; in attached mode (Config.Attached) quitting leaves them running.
//   - A job that appears without this TUI starting it (the add prompt, R)
//     raises a notice "started from outside this TUI"; those that follow
//     it within arrivalsWindow, while it stands, are counted in it.
//   - ShutdownMsg (jobtop shutdown) stops every job and quits, unasked.
//   - R reloads the instance's job file. It is offered only when
//     Config.JobFile names one and the engine is a Reloader (an optional
//     interface, so a bare *jobs.Manager stays an Engine); the status bar
//     shows what changed, and a panel lists every problem of a file that
//     could not be reloaded.
//   - Widths are counted per grapheme cluster at the most any terminal
//     draws it (cellwidth.go), so no row ever reaches past the last
//     column and wraps, whatever the terminal thinks of 👍🏽 or 👩‍💻. In a
//     split view a row a terminal may draw narrower (⚠️) moves the cursor
//     to its box's right edge (box.writeRow), so the boxes after it stay;
//     and the renderer erases such a row before drawing it, so a row
//     drawn short keeps nothing of the one drawn there before
//     (third_party/bubbletea/JOBTOP.md).
//   - In the prompts, rune input is text, never a key binding, also when
//     a fast paste arrives as words that spell key names (textentry.go).
//   - A panel (the "?" help, a reload's problems) covers the table and
//     the panes until esc, q or ? closes it.
//   - A terminal job's pane after a clear of its screen (Info.
//     ClearedCursor: clear, ctrl+l) shows, as the terminal does, the
//     lines since from its top row and those before as scrollback above:
//     the bottom of the view starts no earlier than the clear
//     (clearedAt). Pipe jobs, the all view and a search's filter show
//     every line.
//   - In input mode, a click on another pane moves input mode there
//     (moveInput), or ends it when that pane's job takes no keys.
//   - Panes add rows of their own around the output (notedSource): the
//     number of older lines memory dropped, and why a job could not
//     start. With wrap off, cut rows end in "…" and ←/→ scroll sideways.
//   - Over a HostsEngine (jobtop attach --host a --host b), the table has
//     a HOST column after the ID, each job shows its ID on its own host,
//     notices and pane headers say "job 3 web on b", and the status bar
//     shows each host, "b: disconnected, retrying in 2s" for one that
//     dropped (hosts.go). A log file on another host is not opened in the
//     pager; a notice says where it is.
package ui
