package cmd

import (
	"fmt"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// misspeltFlagError is an unknown flag close to flags of jobtop's own
// (near, as --host): a misspelling of one. Its words say which, and it
// gets no quote hint (quoteHint): "jobtop --hots ssh://x ls" said to
// quote ls's command line to run the program ls.
type misspeltFlagError struct {
	flag string
	near []string
}

func (e *misspeltFlagError) Error() string {
	return fmt.Sprintf("unknown flag: %s (did you mean %s?)", e.flag, strings.Join(e.near, " or "))
}

// misspeltFlag is err, pflag's refusal of an unknown long flag, as a
// *misspeltFlagError when the flag is close to flags of c's; nil
// otherwise.
func misspeltFlag(c *cobra.Command, err error) error {
	flag, ok := strings.CutPrefix(err.Error(), "unknown flag: ")
	name, long := strings.CutPrefix(flag, "--")
	if !ok || !long || name == "" {
		return nil
	}
	if runsPrograms(c) && programBefore(c.Flags().Args()) != "" {
		// After a program's name, the flag is the program's ("jobtop
		// make --names", "jobtop rg --files"): the quote hint says how
		// to give it, and a jobtop flag it is close to would change
		// what runs. After a quoted command line ('make -j8' --nmae) it
		// is jobtop's.
		return nil
	}
	if near := nearFlags(c.Flags(), name); len(near) > 0 {
		return &misspeltFlagError{flag: flag, near: near}
	}
	return nil
}

// nearFlags are the shown flags of fs whose names name is a misspelling
// of (nearName), as --NAME.
func nearFlags(fs *pflag.FlagSet, name string) []string {
	var near []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && f.Deprecated == "" && nearName(name, f.Name) {
			near = append(near, "--"+f.Name)
		}
	})
	return near
}

// programBefore is the last of words that is a program's name on PATH
// (one word, no spaces): "" for none.
func programBefore(words []string) string {
	for i := len(words) - 1; i >= 0; i-- {
		if w := words[i]; w != "" && !strings.ContainsAny(w, " \t") {
			if _, err := exec.LookPath(w); err == nil {
				return w
			}
		}
	}
	return ""
}

// runsPrograms says whether c's arguments are a command line to run (plain
// jobtop, run): a flag after them is the program's.
func runsPrograms(c *cobra.Command) bool {
	return !c.HasParent() || c.Name() == "run"
}
