package vtscreen

// Snapshot is one frame of a terminal screen (vtfast.Screen draws them). Its slices are shared between the
// callers that got the same frame: read them, never change them.
type Snapshot struct {
	// Lines are the rows as plain text, trailing blanks trimmed, a wide
	// character once (it fills two columns).
	Lines []string
	// ANSI are the same rows with SGR sequences for colours and
	// attributes, reset at the end of each row; nothing but SGR.
	ANSI []string
	// Widths are the columns each row of ANSI takes (a row of Lines
	// takes as many, or fewer when it ends in coloured blanks).
	Widths []int
	// CursorX and CursorY are the cursor's column and row, from 0.
	CursorX, CursorY int
	// CursorVisible is false when the program hid the cursor.
	CursorVisible bool
	// Cols and Rows are the screen's size.
	Cols, Rows int
	// AltScreen is true while the program is on the alternate screen.
	AltScreen bool
	// Modes are the input modes the program asked for.
	Modes InputModes
	// Seq changes whenever the screen may have changed (a write or a
	// resize); equal Seqs are equal frames.
	Seq uint64
}
