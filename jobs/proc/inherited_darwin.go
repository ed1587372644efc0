package proc

// fdDir lists the process's open file descriptors.
const fdDir = "/dev/fd"

// closeOnExecRange reports false: macOS has no close_range.
func closeOnExecRange() bool { return false }
