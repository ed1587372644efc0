package cmd

import "strconv"

// decimalUint and decimalInt are count flags read in base 10 only. pflag
// reads numbers as Go literals, so --max-running 010 ran 8 jobs at once,
// 0x10 16 and 1_000 1000, while jobtop parallel 010 set 10. Their types
// are pflag's ("uint", "int"), so GetUint and GetInt read them, and a
// value that is no number fails as pflag's own do ("strconv.ParseUint:
// ..."), which flagValueError words.
type (
	decimalUint struct{ p *uint }
	decimalInt  struct{ p *int }
)

func newDecimalUint(p *uint, def uint) decimalUint { *p = def; return decimalUint{p} }
func newDecimalInt(p *int, def int) decimalInt     { *p = def; return decimalInt{p} }

func (d decimalUint) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, strconv.IntSize)
	if err != nil {
		return err
	}
	*d.p = uint(n)
	return nil
}

func (d decimalInt) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		return err
	}
	*d.p = int(n)
	return nil
}

func (d decimalUint) String() string {
	if d.p == nil {
		return "0"
	}
	return strconv.FormatUint(uint64(*d.p), 10)
}

func (d decimalInt) String() string {
	if d.p == nil {
		return "0"
	}
	return strconv.Itoa(*d.p)
}

func (decimalUint) Type() string { return "uint" }
func (decimalInt) Type() string  { return "int" }
