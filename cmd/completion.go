package cmd

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"
)

func newCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish",
		Short: "Print a shell completion script",
		Long: `Print a completion script for your shell. Job arguments complete with the
IDs of the instance's jobs, and with their names once a letter is typed.

  bash:  source <(jobtop completion bash)   (needs the bash-completion package)
  zsh:   jobtop completion zsh > "${fpath[1]}/_jobtop"
  fish:  jobtop completion fish > ~/.config/fish/completions/jobtop.fish`,
		ValidArgs: []string{"bash", "zsh", "fish"},
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 1 && !slices.Contains(cmd.ValidArgs, args[0]):
				return fmt.Errorf("jobtop has no completion script for %q: name one shell: bash, zsh or fish", args[0])
			case len(args) != 1:
				return fmt.Errorf("name one shell: bash, zsh or fish")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root, out := cmd.Root(), cmd.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			default:
				return root.GenFishCompletion(out, true)
			}
		},
	}
}
