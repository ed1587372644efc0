// Command jobtop runs, watches and controls long jobs from one terminal:
// a live TUI, a local API and a CLI for agents and scripts.
package main

import (
	"os"

	"jobtop/cmd"
)

func main() {
	os.Exit(cmd.Execute())
}
