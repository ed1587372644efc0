//go:build !linux

package proc

// Tree reads root and every process below it where that is cheaper than
// reading the whole table; here it is not (ok is false): use List.
func Tree(root int) (procs []Proc, ok bool, err error) { return nil, false, nil }
