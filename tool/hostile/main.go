// Command hostile measures what hostile pictures cost the bot: for each
// picture The Cat API could hand it (a GIF bomb, a 50,000² PNG header, a
// 16-bit 6000×4000 PNG, a truncated JPEG, and an ordinary picture to compare
// with), it starts the bot as a child process with its default settings
// (picture pools on, so refills decode the picture over and over), serves
// that picture for every !cat, sends --parallel !cat at once through
// /_selftest --rounds times, and reports the replies and the bot's peak and
// final RSS from /proc/<pid>/status.
//
//	go run ./tool/hostile
//	go run ./tool/hostile --parallel 8 --rounds 3
//
// The simulator (lossless, zero latency) and the fake upstreams run in this
// process, on loopback. Exit status: 0 when the bot answered every !cat,
// stayed under --max-rss and exited cleanly each time, 1 otherwise, 2 for
// usage errors.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// picture is one case: the bytes served for every cat picture.
type picture struct {
	name, ctype string
	data        func() []byte
}

var pictures = []picture{
	{"ordinary JPEG 1200x900", "", nil},
	{"GIF bomb 4000x6000, 300 frames", "image/gif", func() []byte { return fakeup.GIFBomb(4000, 6000, 300) }},
	{"PNG header 50000x50000", "image/png", func() []byte { return fakeup.PNGHeader(50000, 50000) }},
	{"16-bit PNG 6000x4000", "image/png", func() []byte { return fakeup.PNG16(6000, 4000) }},
	{"truncated JPEG 1200x900", "image/jpeg", func() []byte { return fakeup.TruncatedJPEG(1200, 900) }},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hostile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	parallel := fs.Int("parallel", 8, "!cat sent at once per round (the bot's LIMIT is 8)")
	rounds := fs.Int("rounds", 3, "rounds per picture")
	bin := fs.String("bot", "", "signal-bot binary; empty: build ./cmd/signal-bot")
	maxRSS := fs.Float64("max-rss", 560, "the stated bound, MB: exit 1 when a peak RSS is over it (docs/faults.md, hostile input)")
	if err := fs.Parse(args); err != nil || *parallel < 1 || *parallel > 64 || *rounds < 1 {
		return 2
	}
	dir, err := os.MkdirTemp("", "signal-bot-hostile-")
	if err != nil {
		fmt.Fprintln(stderr, "hostile:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if *bin == "" {
		*bin = filepath.Join(dir, "signal-bot")
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", *bin, "signal-bot/cmd/signal-bot").CombinedOutput(); err != nil {
			fmt.Fprintf(stderr, "hostile: build signal-bot: %v\n%s", err, out)
			return 1
		}
	}
	fmt.Fprintf(stdout, "%-32s %8s %8s %10s %10s\n", "picture", "pictures", "apology", "peak RSS", "end RSS")
	ok := true
	for _, p := range pictures {
		r, err := measure(ctx, *bin, dir, p, *parallel, *rounds)
		if err != nil {
			fmt.Fprintf(stderr, "hostile: %s: %v\n", p.name, err)
			return 1
		}
		fmt.Fprintf(stdout, "%-32s %8d %8d %8.1f MB %7.1f MB\n", p.name, r.pictures, r.apologies, mb(r.hwm), mb(r.rss))
		ok = ok && r.pictures+r.apologies == *parallel**rounds && r.exit == 0 && mb(r.hwm) <= *maxRSS
	}
	if !ok {
		return 1
	}
	return 0
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

// result is what one picture cost.
type result struct {
	pictures, apologies int
	hwm, rss            int64
	exit                int
}

var startLine = regexp.MustCompile(`msg="signal-bot running".* http=(http://\S+)`)

// measure runs one bot against p and sends it parallel*rounds !cat.
func measure(ctx context.Context, bin, dir string, p picture, parallel, rounds int) (result, error) {
	var r result
	s := sim.New(sim.Config{Latency: sim.ZeroLatency(), Lossless: true})
	simURL, err := s.Start("127.0.0.1:0")
	if err != nil {
		return r, err
	}
	defer s.Close()
	up := fakeup.New(fakeup.Config{})
	if _, err := up.Start("127.0.0.1:0"); err != nil {
		return r, err
	}
	defer up.Close()
	if p.data != nil {
		up.SetCatImage(p.data(), p.ctype)
	}
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = []string{
		"SIGNAL_API_URL=" + simURL, "SIGNAL_NUMBER=" + s.Number(),
		"SIGNAL_GROUPS=testbot=" + sim.TestGroup().ID(),
		"CAT_API_URL=" + up.CatAPIURL(), "COMMONS_API_URL=" + up.CommonsAPIURL(), "UPSTREAM_ALLOW=" + up.Addr(),
		"HTTP_ADDR=127.0.0.1:0", "STATE_PATH=" + filepath.Join(dir, p.name+".db"), "COOLDOWNS=cat=0s",
	}
	base, err := startBot(cmd)
	if err != nil {
		return r, err
	}
	time.Sleep(2 * time.Second) // let the pools' first refills run into the picture too
	for range rounds {
		sendRound(base, parallel)
	}
	r.pictures, r.apologies = countReplies(s.Sent())
	r.hwm, r.rss = procMemory(cmd.Process.Pid)
	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait()
	r.exit = cmd.ProcessState.ExitCode()
	return r, nil
}

// startBot starts cmd and returns the base URL of its HTTP server, read from
// its start line; it kills the bot when that line does not come within 30 s.
func startBot(cmd *exec.Cmd) (string, error) {
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if m := startLine.FindStringSubmatch(sc.Text()); m != nil {
				urlc <- m[1]
			}
		}
	}()
	select {
	case base := <-urlc:
		return base, nil
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return "", errors.New("the bot did not start within 30 s")
	}
}

// sendRound sends parallel !cat at once and waits for every answer.
func sendRound(base string, parallel int) {
	var wg sync.WaitGroup
	for i := range parallel {
		wg.Add(1)
		go func() { defer wg.Done(); selftest(base, i) }()
	}
	wg.Wait()
}

// countReplies counts the replies that carried a picture and the apologies.
func countReplies(sent []sim.Sent) (pictures, apologies int) {
	for _, m := range sent {
		if len(m.Attachments) > 0 {
			pictures++
		} else if strings.HasPrefix(m.Message, "Przepraszam") {
			apologies++
		}
	}
	return pictures, apologies
}

// selftest sends one !cat from synthetic sender i and waits for its answer.
func selftest(base string, i int) {
	body := fmt.Sprintf(`{"group":"testbot","text":"!cat","sender":%d}`, i)
	res, err := http.Post(base+"/_selftest", "application/json", bytes.NewReader([]byte(body)))
	if err != nil {
		return
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
}

// procMemory reads VmHWM and VmRSS of pid, in bytes.
func procMemory(pid int) (hwm, rss int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, ":")
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "VmHWM":
			hwm = kb << 10
		case "VmRSS":
			rss = kb << 10
		}
	}
	return hwm, rss
}
