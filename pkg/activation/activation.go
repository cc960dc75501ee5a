// Package activation takes the bot's HTTP listener from systemd socket
// activation (sd_listen_fds(3)), so the listening socket outlives the
// process: while the bot restarts, the kernel queues the connections that
// arrive (the REST API's webhook POSTs) and the next process accepts them.
//
// The protocol: the service manager passes the sockets as file descriptors
// 3, 4, … and sets LISTEN_FDS to their count, LISTEN_PID to the process they
// are for, and optionally LISTEN_FDNAMES to their names, colon-separated.
package activation

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// The protocol's environment variables.
const (
	EnvPID     = "LISTEN_PID"
	EnvFDs     = "LISTEN_FDS"
	EnvFDNames = "LISTEN_FDNAMES"
)

// Name is the name (FileDescriptorName= in the .socket unit) of the HTTP
// socket when more than one is passed; a single socket may have any name.
const Name = "http"

// firstFD is SD_LISTEN_FDS_START: the first passed descriptor.
const firstFD = 3

// Listener returns the HTTP socket passed to process pid (os.Getpid()), or
// nil and no error when none was: LISTEN_PID unset or naming another process.
// It must be a listening TCP socket. lookup is os.LookupEnv in production.
func Listener(lookup func(string) (string, bool), pid int) (net.Listener, error) {
	fd, name, ok, err := pick(lookup, pid)
	if err != nil || !ok {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	ln, err := net.FileListener(f) // a duplicate; the original is closed below
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("socket activation: fd %d (%s): %w", fd, name, err)
	}
	if ln.Addr().Network() != "tcp" {
		ln.Close()
		return nil, fmt.Errorf("socket activation: fd %d (%s) is a %s socket; want TCP (ListenStream=127.0.0.1:9923)", fd, name, ln.Addr().Network())
	}
	return ln, nil
}

// pick reads the protocol's variables and returns the descriptor of the HTTP
// socket and its name; ok is false when nothing was passed to pid.
func pick(lookup func(string) (string, bool), pid int) (fd int, name string, ok bool, err error) {
	p, set := lookup(EnvPID)
	if !set {
		return 0, "", false, nil
	}
	if n, err := strconv.Atoi(p); err != nil || n != pid {
		return 0, "", false, nil // meant for another process (a parent's, inherited)
	}
	v, _ := lookup(EnvFDs)
	count, err := strconv.Atoi(v)
	if err != nil || count < 1 {
		return 0, "", false, fmt.Errorf("socket activation: %s=%q: want the count of passed sockets, at least 1", EnvFDs, v)
	}
	var names []string
	if v, set := lookup(EnvFDNames); set {
		names = strings.Split(v, ":")
		if len(names) != count {
			return 0, "", false, fmt.Errorf("socket activation: %s has %d names for %d sockets", EnvFDNames, len(names), count)
		}
	}
	nameOf := func(i int) string {
		if names == nil {
			return "unknown"
		}
		return names[i]
	}
	if count == 1 {
		return firstFD, nameOf(0), true, nil
	}
	for i, n := range names {
		if n == Name {
			return firstFD + i, n, true, nil
		}
	}
	return 0, "", false, fmt.Errorf("socket activation: %d sockets passed and none named %q (set FileDescriptorName=%s)", count, Name, Name)
}
