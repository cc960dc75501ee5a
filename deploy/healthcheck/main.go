// Command healthcheck is the container image's HEALTHCHECK. The image has no
// shell and no curl, so this static binary sits beside signal-bot: it asks the
// bot's GET /healthz on loopback, prints the answer (Docker keeps it in
// `docker inspect`), and exits 0 when the bot says ok, 1 otherwise. The bot
// answers 503 while its websocket to signal-cli-rest-api is down.
//
// It reads the bot's own HTTP_ADDR (the container's environment), so it
// follows the bot wherever it listens; an unspecified host (0.0.0.0, ::) is
// reached on loopback.
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// defaultAddr is the bot's HTTP_ADDR default.
const defaultAddr = "127.0.0.1:9923"

// timeout bounds the whole check; Docker's own timeout is longer.
const timeout = 3 * time.Second

func main() {
	os.Exit(run(os.Getenv, os.Stdout))
}

// run checks the bot named by getenv("HTTP_ADDR") and returns the exit status.
func run(getenv func(string) string, w io.Writer) int {
	u := healthURL(getenv("HTTP_ADDR"))
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		fmt.Fprintf(w, "healthcheck: %v\n", err)
		return 1
	}
	hc := &http.Client{Transport: &http.Transport{Proxy: nil}}
	res, err := hc.Do(req)
	if err != nil {
		fmt.Fprintf(w, "healthcheck: %v\n", err)
		return 1
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 2<<10))
	fmt.Fprintf(w, "%s %s\n", res.Status, strings.TrimSpace(string(body)))
	if res.StatusCode != http.StatusOK {
		return 1
	}
	return 0
}

// healthURL turns the bot's HTTP_ADDR into the URL of its /healthz.
func healthURL(addr string) string {
	if addr == "" {
		addr = defaultAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr + "/healthz"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz"
}
