package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// child is the bot under soak, a process of its own.
type child struct {
	cmd    *exec.Cmd
	log    *botLog
	url    string // its HTTP base, from its start line
	exited chan struct{}
	err    error // Wait's, once exited is closed
}

// buildBot builds ./cmd/signal-bot into dir and returns the binary's path.
func buildBot(ctx context.Context, dir string, race bool) (string, error) {
	bin := filepath.Join(dir, "signal-bot")
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", append(args, "signal-bot/cmd/signal-bot")...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("build signal-bot: %w\n%s", err, out)
	}
	return bin, nil
}

// startBot starts bin with exactly env and waits (30 s at most) until it
// names its HTTP address.
func startBot(ctx context.Context, bin string, env []string) (*child, error) {
	c := &child{cmd: exec.Command(bin), log: newBotLog(), exited: make(chan struct{})}
	c.cmd.Env = env
	stderr, err := c.cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("start signal-bot: %w", err)
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start signal-bot: %w", err)
	}
	scanned := make(chan struct{})
	go func() { defer close(scanned); c.log.consume(stderr) }()
	go func() { <-scanned; c.err = c.cmd.Wait(); close(c.exited) }()
	t := time.NewTimer(30 * time.Second)
	defer t.Stop()
	select {
	case c.url = <-c.log.urlc:
		return c, nil
	case <-c.exited:
		err = fmt.Errorf("signal-bot exited at start: %v\n%s", c.err, c.log.tail())
	case <-t.C:
		err = errors.New("signal-bot did not start within 30 s")
	case <-ctx.Done():
		err = ctx.Err()
	}
	c.kill()
	return nil, err
}

// stop sends SIGTERM and waits (within SHUTDOWN_TIMEOUT's default and a
// margin) for the exit code; a bot that does not stop is killed.
func (c *child) stop() (int, error) {
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return -1, fmt.Errorf("stop signal-bot: %w", err)
	}
	t := time.NewTimer(60 * time.Second)
	defer t.Stop()
	select {
	case <-c.exited:
		return c.cmd.ProcessState.ExitCode(), nil
	case <-t.C:
		c.kill()
		return -1, errors.New("signal-bot still running 60 s after SIGTERM; killed")
	}
}

// kill ends the process if it still runs and waits for it.
func (c *child) kill() {
	select {
	case <-c.exited:
	default:
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
}

// pid is the process id.
func (c *child) pid() int { return c.cmd.Process.Pid }
