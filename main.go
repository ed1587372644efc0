// Command jobtop runs, watches and controls long jobs from one terminal:
// a live TUI, a local API and a CLI for agents and scripts.
package main

import (
	"os"

	"jobtop/cmd"
	"jobtop/jobs/proc"
)

func main() {
	proc.CloseOnExecInherited()
	os.Exit(cmd.Execute())
}
