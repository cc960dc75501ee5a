package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// This file holds what the process tests read of the machine: the build,
// /proc, the files a bot leaves.

// buildBot builds ./cmd/signal-bot into dir, with -race if race.
func buildBot(dir string, race bool) (string, error) {
	goBin := "go"
	if root := os.Getenv("GOROOT"); root != "" {
		goBin = filepath.Join(root, "bin", "go")
	}
	bin := filepath.Join(dir, "signal-bot")
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, goBin, append(args, "signal-bot/cmd/signal-bot")...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	return bin, nil
}

// procStatus reads a kB field of /proc/<pid>/status, in bytes.
func procStatus(t *testing.T, pid int, field string) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc here (Linux only): %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("parse %s %q: %v", field, v, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// acceptQueue reads from /proc/net/tcp how many connections wait in the
// accept queue of the listening socket at addr (an IPv4 address): for a
// socket in LISTEN state the kernel reports that count as rx_queue.
func acceptQueue(t *testing.T, addr string) int {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	ip := net.ParseIP(host).To4()
	pn, err := strconv.Atoi(port)
	if ip == nil || err != nil {
		t.Fatalf("acceptQueue(%q): want an IPv4 address", addr)
	}
	// /proc/net/tcp writes the address as the 32-bit value in host order (little endian here).
	local := fmt.Sprintf("%02X%02X%02X%02X:%04X", ip[3], ip[2], ip[1], ip[0], pn)
	fh, err := os.Open("/proc/net/tcp")
	if err != nil {
		t.Fatalf("the accept queue is read from /proc/net/tcp: %v", err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue ...
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 || fields[1] != local || fields[3] != "0A" { // 0A: LISTEN
			continue
		}
		_, rx, _ := strings.Cut(fields[4], ":")
		n, err := strconv.ParseInt(rx, 16, 64)
		if err != nil {
			t.Fatalf("/proc/net/tcp: %q: %v", sc.Text(), err)
		}
		return int(n)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no listening socket %s (%s) in /proc/net/tcp", addr, local)
	return 0
}

// fill writes zeros to path until its filesystem is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if !strings.Contains(err.Error(), "no space left") {
				t.Fatalf("fill %s: %v", path, err)
			}
			return
		}
	}
}

// copyFile copies a quiet state file (out of the bot's namespace) and hands
// the copy to check.
func copyFile(t *testing.T, from, to string, check func(string)) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
	check(to)
}

func sizeOf(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
