package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// checkHelpTopics makes "jobtop help WORD..." refuse a WORD that names no
// command, as a mistyped command is refused (mistypedCommand): exit 2,
// with the command it is a misspelling of. Cobra's help looks the words
// up from the root, which takes any argument, so "jobtop help stauts"
// printed the root's help and exited 0, saying nothing of the topic.
// Words after a command without subcommands ("help logs 1") are its
// arguments, and show its help, as before.
func checkHelpTopics(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	help, _, err := root.Find([]string{"help"})
	if err != nil || help == root || help.Run == nil {
		return
	}
	show := help.Run
	help.Run = nil
	help.RunE = func(c *cobra.Command, args []string) error {
		if err := unknownHelpTopic(c.Root(), args); err != nil {
			return &ExitError{Code: usageExit, Err: err}
		}
		show(c, args)
		return nil
	}
}

// unknownHelpTopic is the refusal of a help topic (args) that names no
// command, nil for one that does.
func unknownHelpTopic(root *cobra.Command, args []string) error {
	found, rest, err := root.Find(args)
	if err != nil || found == nil || len(rest) == 0 || !found.HasAvailableSubCommands() {
		return nil // cobra's help says what it says of these
	}
	topic := strings.Join(args[:len(args)-len(rest)+1], " ")
	if near := nearSubcommands(found, rest[0]); len(near) > 0 {
		return fmt.Errorf("unknown help topic %q: did you mean %s?", topic, strings.Join(near, " or "))
	}
	lists := strings.TrimSpace(root.Name() + " help " + strings.TrimPrefix(found.CommandPath(), root.Name()))
	return fmt.Errorf("unknown help topic %q: %s lists the commands", topic, lists)
}
