package proc

import "golang.org/x/sys/unix"

// FreeBSD's process table is read through gopsutil (psutil.go): sysctl
// kern.proc, no procfs needed.

// List reads every process in the table. Processes that end while it
// reads are left out.
func List() ([]Proc, error) { return psutilList() }

// PIDs lists the processes in the table.
func PIDs() ([]int, error) { return psutilPIDs() }

// Get reads one process.
func Get(pid int) (Proc, error) { return psutilGet(pid) }

// environ reads the environment the process started with (sysctl
// kern.proc.env).
func environ(pid int) ([]string, error) {
	b, err := unix.SysctlRaw("kern.proc.env", pid)
	if err != nil {
		return nil, err
	}
	return splitNUL(b), nil
}

// Entries lists the processes in the table, with no generation (Entry).
func Entries() ([]Entry, error) { return entriesOf(PIDs()) }
