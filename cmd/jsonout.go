package cmd

import (
	"bytes"
	"io"
)

// c1Safe writes JSON with the C1 control characters (U+0080-U+009F) in
// its strings escaped as \u0080...: Go's encoder escapes the C0 ones (ESC
// is \u001b) but writes these as they are, and some terminals act on
// them (CSI as U+009B), so a job's output, name or description shown with
// --json on a terminal could move the cursor or retitle the window. In
// JSON they can only be inside strings, and the escaped value is the
// same. Each Write must hold whole characters, as an encoder's does.
type c1Safe struct{ w io.Writer }

func (c c1Safe) Write(p []byte) (int, error) {
	i := bytes.IndexByte(p, 0xc2)
	if i < 0 {
		return c.w.Write(p)
	}
	n := len(p)
	out := make([]byte, 0, n+16)
	for i >= 0 {
		out = append(out, p[:i]...)
		if i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f {
			out = append(out, '\\', 'u', '0', '0', hexDigit(p[i+1]>>4), hexDigit(p[i+1]&0xf))
		} else {
			out = append(out, p[i:min(i+2, len(p))]...)
		}
		p = p[min(i+2, len(p)):]
		i = bytes.IndexByte(p, 0xc2)
	}
	out = append(out, p...)
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return n, nil
}

func hexDigit(b byte) byte { return "0123456789abcdef"[b] }
