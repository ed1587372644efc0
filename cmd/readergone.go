package cmd

import (
	"context"
	"errors"
	"io"
)

// exitReaderGone is the exit of a follow whose reader went away (jobtop
// logs -f | head -3): as a shell shows a command killed by SIGPIPE.
const exitReaderGone = 128 + 13

// errReaderGone is the cause of a follow's end when its reader went away.
var errReaderGone = errors.New("the reader of stdout is gone")

// followUntilReaderGone runs follow with a context that ends once nothing
// reads stdout any more (out is a pipe or socket whose far end closed, as
// GNU tail -f notices): a follow of a quiet job otherwise learns it only
// at its next write, which may never come. It returns follow's error, or
// exitReaderGone's, silent, when that was why it ended.
func followUntilReaderGone(ctx context.Context, out io.Writer, follow func(context.Context) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := watchReader(out, func() { cancel(errReaderGone) })
	err := follow(ctx)
	stop()
	if errors.Is(context.Cause(ctx), errReaderGone) {
		return &ExitError{Code: exitReaderGone}
	}
	return err
}
