package proc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"strconv"
	"syscall"
)

var pageSize = int64(os.Getpagesize())

// List reads every process in the table. Processes that end while it
// reads are left out.
func List() ([]Proc, error) {
	pids, err := PIDs()
	if err != nil {
		return nil, err
	}
	out := make([]Proc, 0, len(pids))
	buf := make([]byte, 1024)
	for _, pid := range pids {
		if p, err := readStat(pid, buf); err == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// PIDs lists the processes in the table: one read of a directory, much
// cheaper than reading each (see List).
func PIDs() ([]int, error) {
	es, err := Entries()
	if err != nil {
		return nil, err
	}
	pids := make([]int, len(es))
	for i, e := range es {
		pids[i] = e.PID
	}
	return pids, nil
}

// Entries lists the processes in the table, each with its generation:
// the inode of its /proc directory. A process whose PID is reused gets a
// new one; so may a process whose entry the kernel dropped from its
// caches meanwhile (memory pressure), which costs a read, nothing more.
func Entries() ([]Entry, error) {
	fd, err := syscall.Open("/proc", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var out []Entry
	buf := make([]byte, 32<<10)
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return out, nil
		}
		out = appendEntries(out, buf[:n])
	}
}

// appendEntries appends the processes among the directory entries in b
// (struct linux_dirent64: inode, offset, record length, type, name).
func appendEntries(out []Entry, b []byte) []Entry {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			break
		}
		name := b[19:reclen]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if pid, err := strconv.Atoi(string(name)); err == nil && pid > 0 {
			out = append(out, Entry{PID: pid, Gen: binary.NativeEndian.Uint64(b[0:8])})
		}
		b = b[reclen:]
	}
	return out
}

// Get reads one process.
func Get(pid int) (Proc, error) {
	return readStat(pid, make([]byte, 1024))
}

func readStat(pid int, buf []byte) (Proc, error) {
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return Proc{}, ErrGone
	}
	n, err := syscall.Read(fd, buf)
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return Proc{}, ErrGone
	}
	return parseStat(pid, buf[:n])
}

// parseStat reads a /proc/PID/stat line. The command name is in
// parentheses and may hold spaces and parentheses; the fields after the
// last ')' are: state ppid pgrp session tty_nr tpgid flags minflt cminflt
// majflt cmajflt utime stime cutime cstime priority nice num_threads
// itrealvalue starttime vsize rss ...
func parseStat(pid int, b []byte) (Proc, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Proc{}, errors.New("malformed stat line")
	}
	var f [22][]byte
	k := 0
	for _, w := range bytes.Fields(b[i+1:]) {
		if k == len(f) {
			break
		}
		f[k] = w
		k++
	}
	if k < len(f) {
		return Proc{}, errors.New("short stat line")
	}
	num := func(j int) uint64 { v, _ := strconv.ParseUint(string(f[j]), 10, 64); return v }
	return Proc{
		PID:     pid,
		PPID:    int(num(1)),
		PGID:    int(num(2)),
		SID:     int(num(3)),
		Start:   num(19),
		Zombie:  len(f[0]) > 0 && f[0][0] == 'Z',
		Stopped: len(f[0]) > 0 && (f[0][0] == 'T' || f[0][0] == 't'),
		CPU:     num(11) + num(12) + num(13) + num(14),
		RSS:     int64(num(21)) * pageSize,
	}, nil
}

// environ reads the environment the process passed to exec. (It reads
// empty while an exec is half done: the new one is not set up yet.)
func environ(pid int) ([]string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return nil, err
	}
	return splitNUL(b), nil
}
