package cmd

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
)

type sendOptions struct {
	enter bool
	raw   bool
	eof   bool
}

func newSendCmd() *cobra.Command {
	var o sendOptions
	cmd := &cobra.Command{
		Use:   "send ID [TEXT]",
		Short: "Type text into a job's terminal (or its stdin)",
		Long: `Write TEXT to a job, as if typed: to the terminal of a job started with
--tty (tty: true in a job file), or to the stdin of a job started with
--stdin pipe. Other jobs read no input, and send says so.

Escapes in TEXT: \n (newline), \r (return, the enter key on a terminal),
\t, \e (escape), \a, \b, \\, \xHH (any byte: \x03 is ctrl+c, \x04
ctrl+d, which ends a terminal's input), \0. Any other backslash is an
error; --raw sends TEXT as it is.

--enter ends the input with the enter key: \r on a terminal, \n on a
pipe. --eof then ends the job's input: its stdin pipe is closed (it
reads EOF), or a terminal gets ctrl+d. Send returns once the job has
taken the bytes, or fails if it does not read them within a few seconds.`,
		Example: `  jobtop send 3 --enter y              # answer "Overwrite? [y/N]"
  jobtop send 3 '\x03'                  # ctrl+c
  jobtop send web --enter 'npm test'
  jobtop send sorter "$(cat names.txt)" --eof   # a --stdin pipe job reads it all, then EOF`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return fmt.Errorf("send takes a job ID and the text to send (see jobtop send --help), got %s", plural(len(args), "argument"))
			}
			return nil
		},
		ValidArgsFunction: completeJobs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return send(cmd, args, o)
		},
	}
	cmd.Flags().BoolVar(&o.enter, "enter", false, "end with the enter key (\\r on a terminal, \\n on a pipe)")
	cmd.Flags().BoolVar(&o.raw, "raw", false, "send TEXT as it is: backslashes are not escapes")
	cmd.Flags().BoolVar(&o.eof, "eof", false, "then end the job's input (EOF on a stdin pipe, ctrl+d on a terminal)")
	return cmd
}

func send(cmd *cobra.Command, args []string, o sendOptions) error {
	text := ""
	if len(args) == 2 {
		text = args[1]
	}
	if text == "" && !o.enter && !o.eof {
		return usageErrorf("nothing to send: give TEXT, --enter for the enter key, or --eof to end the input")
	}
	b := []byte(text)
	if !o.raw {
		var err error
		if b, err = unescape(text); err != nil {
			return &ExitError{Code: usageExit, Err: err}
		}
	}
	c := newClient(cmd)
	ctx := cmd.Context()
	id, err := resolveJob(ctx, c, args[0])
	if err != nil {
		return err
	}
	if o.enter {
		info, err := c.Job(ctx, id)
		if err != nil {
			return err
		}
		b = append(b, enterKey(info.TTY)...)
	}
	if len(b) > 0 {
		if err := c.SendInput(ctx, id, b); err != nil {
			return err
		}
	}
	if o.eof {
		return c.CloseInput(ctx, id)
	}
	return nil
}

// enterKey is what the enter key sends: a terminal turns "\r" into the
// end of a line; a pipe has no terminal to do that.
func enterKey(tty bool) string {
	if tty {
		return "\r"
	}
	return "\n"
}

// unescape reads the escapes send takes (see its help).
func unescape(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			out = append(out, s[i])
			continue
		}
		if i+1 == len(s) {
			return nil, errors.New(`TEXT ends in a lone backslash: write \\ for one (or use --raw)`)
		}
		i++
		switch c := s[i]; c {
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'e':
			out = append(out, 0x1b)
		case 'a':
			out = append(out, 0x07)
		case 'b':
			out = append(out, 0x08)
		case '0':
			out = append(out, 0)
		case '\\':
			out = append(out, '\\')
		case 'x':
			if i+3 > len(s) {
				return nil, fmt.Errorf(`\x at byte %d needs two hex digits, like \x03`, i-1)
			}
			n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return nil, fmt.Errorf(`\x at byte %d needs two hex digits, like \x03`, i-1)
			}
			out = append(out, byte(n))
			i += 2
		default:
			return nil, fmt.Errorf(`unknown escape \%c at byte %d: use \n, \r, \t, \e, \a, \b, \0, \\ or \xHH (or --raw)`, c, i-1)
		}
	}
	return out, nil
}
