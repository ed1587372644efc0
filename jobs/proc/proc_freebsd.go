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

// Env returns the value of an environment variable as the process had it
// when it started, if it had it (sysctl kern.proc.env). Another user's
// processes cannot be read and report false.
func Env(pid int, name string) (string, bool) {
	b, err := unix.SysctlRaw("kern.proc.env", pid)
	if err != nil {
		return "", false
	}
	return lookupEnv(splitNUL(b), name)
}

// splitNUL splits NUL-terminated strings.
func splitNUL(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != 0 {
			i++
		}
		out = append(out, string(b[:i]))
		b = b[min(i+1, len(b)):]
	}
	return out
}
