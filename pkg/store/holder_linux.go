package store

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// holderOf names the process that holds path's lock, from the kernel's own
// table of locks (/proc/locks): it is never stale, needs no file of the
// bot's beside the state file and nothing to clean up after a kill -9. A
// holder in another PID namespace (another container) shows as pid 0 there
// and is not named.
func holderOf(path string) string {
	const unknown = "its pid is not visible from here: another container or user?"
	fi, err := os.Stat(path)
	if err != nil {
		return unknown
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return unknown
	}
	locks, err := os.ReadFile("/proc/locks")
	if err != nil {
		return unknown
	}
	pid := lockHolder(string(locks), uint64(st.Dev), uint64(st.Ino), func(pid int) bool { return holdsOpen(pid, fi) })
	if pid <= 0 {
		return unknown
	}
	if comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); err == nil {
		return fmt.Sprintf("pid %d, %s", pid, strings.TrimSpace(string(comm)))
	}
	return fmt.Sprintf("pid %d", pid)
}

// lockHolder finds the pid of the flock on the file (dev, ino) in locks, the
// text of /proc/locks, whose lines read
//
//	1: FLOCK  ADVISORY  WRITE 1234 fd:01:56789 0 EOF
//
// (a waiter's line has "->" after the number). The device is the
// superblock's, which stat reports differently on some filesystems (btrfs
// subvolumes, overlayfs), so a line whose inode alone matches counts when
// opens confirms that its process has the file open.
func lockHolder(locks string, dev, ino uint64, opens func(pid int) bool) int {
	for _, line := range strings.Split(locks, "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || f[1] != "FLOCK" {
			continue
		}
		pid, err := strconv.Atoi(f[4])
		id := strings.Split(f[5], ":")
		if err != nil || pid <= 0 || len(id) != 3 {
			continue
		}
		maj, err1 := strconv.ParseUint(id[0], 16, 32)
		min, err2 := strconv.ParseUint(id[1], 16, 32)
		n, err3 := strconv.ParseUint(id[2], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || n != ino {
			continue
		}
		if (maj == major(dev) && min == minor(dev)) || opens(pid) {
			return pid
		}
	}
	return 0
}

// major and minor split a Linux device number as the kernel's
// new_encode_dev does.
func major(dev uint64) uint64 { return (dev>>8)&0xfff | (dev>>32)&^0xfff }
func minor(dev uint64) uint64 { return dev&0xff | (dev>>12)&^0xff }

// holdsOpen reports whether process pid has the file fi open (readable only
// for one's own processes).
func holdsOpen(pid int, fi os.FileInfo) bool {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if other, err := os.Stat(dir + "/" + fd.Name()); err == nil && os.SameFile(fi, other) {
			return true
		}
	}
	return false
}
