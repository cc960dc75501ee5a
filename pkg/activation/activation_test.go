package activation

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPick(t *testing.T) {
	const pid = 4242
	tests := []struct {
		name     string
		env      map[string]string
		wantFD   int
		wantName string
		wantOK   bool
		wantErr  string
	}{
		{"no activation", map[string]string{}, 0, "", false, ""},
		{"another process's", map[string]string{EnvPID: "17", EnvFDs: "1"}, 0, "", false, ""},
		{"pid not a number", map[string]string{EnvPID: "x", EnvFDs: "1"}, 0, "", false, ""},
		{"one socket, no names", map[string]string{EnvPID: "4242", EnvFDs: "1"}, 3, "unknown", true, ""},
		{"one socket, any name", map[string]string{EnvPID: "4242", EnvFDs: "1", EnvFDNames: "signal-bot.socket"}, 3, "signal-bot.socket", true, ""},
		{"the one named http", map[string]string{EnvPID: "4242", EnvFDs: "3", EnvFDNames: "metrics:http:other"}, 4, "http", true, ""},
		{"several, none named http", map[string]string{EnvPID: "4242", EnvFDs: "2", EnvFDNames: "a:b"}, 0, "", false, `none named "http"`},
		{"several, no names", map[string]string{EnvPID: "4242", EnvFDs: "2"}, 0, "", false, `none named "http"`},
		{"names do not match the count", map[string]string{EnvPID: "4242", EnvFDs: "2", EnvFDNames: "http"}, 0, "", false, "1 names for 2 sockets"},
		{"no count", map[string]string{EnvPID: "4242"}, 0, "", false, "LISTEN_FDS"},
		{"zero sockets", map[string]string{EnvPID: "4242", EnvFDs: "0"}, 0, "", false, "LISTEN_FDS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			fd, name, ok, err := pick(lookup, pid)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("pick() error = %v; want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || fd != tt.wantFD || name != tt.wantName || ok != tt.wantOK {
				t.Errorf("pick() = %d, %q, %v, %v; want %d, %q, %v, nil", fd, name, ok, err, tt.wantFD, tt.wantName, tt.wantOK)
			}
		})
	}
}

// helperEnv makes the test binary act as a socket-activated service: it takes
// its listener with Listener, accepts one connection and writes its address
// to it, or prints the error and exits 1.
const helperEnv = "ACTIVATION_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(helper())
	}
	os.Exit(m.Run())
}

func helper() int {
	ln, err := Listener(os.LookupEnv, os.Getpid())
	if err != nil || ln == nil {
		fmt.Fprintf(os.Stderr, "listener %v, err %v\n", ln, err)
		return 1
	}
	defer ln.Close()
	c, err := ln.Accept()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer c.Close()
	fmt.Fprintf(c, "served on %s\n", ln.Addr())
	return 0
}

// activated starts the test binary as helper with f as fd 3, the way systemd
// starts a service: LISTEN_PID is the service's own pid, which the shell
// knows before it execs.
func activated(t *testing.T, f *os.File) *exec.Cmd {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh to set LISTEN_PID to the child's pid: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, sh, "-c", `export LISTEN_PID=$$; exec "$0"`, os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"=1", EnvFDs+"=1", EnvFDNames+"=http")
	cmd.ExtraFiles = []*os.File{f}
	return cmd
}

// The child serves on the parent's socket: a connection made before the
// child even started waits in the kernel's queue and is answered.
func TestListenerFromParent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := net.Dial("tcp", ln.Addr().String()) // queued: nobody accepts yet
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cmd := activated(t, f)
	out := &strings.Builder{}
	cmd.Stderr = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if werr := cmd.Wait(); werr != nil {
		t.Fatalf("helper: %v\n%s", werr, out)
	}
	if want := "served on " + ln.Addr().String() + "\n"; err != nil || line != want {
		t.Errorf("read %q, %v; want %q", line, err, want)
	}
}

// A socket that is not TCP is refused with a message that says what to set.
func TestListenerRefusesUnix(t *testing.T) {
	ln, err := net.Listen("unix", filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	f, err := ln.(*net.UnixListener).File()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := activated(t, f)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "want TCP") {
		t.Errorf("helper on a unix socket: %v, %q; want exit 1 saying it wants TCP", err, out)
	}
}
