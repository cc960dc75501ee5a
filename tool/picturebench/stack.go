package main

import (
	"fmt"
	"log/slog"
	"time"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
	"signal-bot/tool/internal/simstack"
)

// stack is one bot against its own simulated REST API and fake upstreams,
// all on loopback, with the measured latency profiles.
type stack struct {
	name string
	sim  *sim.Sim
	up   *fakeup.Server
	st   *simstack.Stack
}

// startStack starts the simulator (sim.DefaultLatency), the fake upstreams
// (fakeup.DefaultLatency) and a bot configured by env on top of the
// defaults, and waits until the bot is connected.
func startStack(name string, env map[string]string, log *slog.Logger) (*stack, error) {
	vars := map[string]string{"COOLDOWNS": "cat=0s,kot=0s", "SELFTEST_RATE": "1000"}
	for k, v := range env {
		vars[k] = v
	}
	st, err := simstack.Start(simstack.Config{
		Sim:  sim.Config{Latency: sim.DefaultLatency(), Lossless: true},
		Up:   fakeup.Config{Latency: fakeup.DefaultLatency(), Seed: 1},
		Env:  vars,
		Log:  log.With("stack", name),
		Name: "picturebench",
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &stack{name: name, sim: st.Sim, up: st.Up, st: st}, nil
}

// url is the bot's own HTTP base URL.
func (s *stack) url() string { return s.st.URL() }

// waitPoolFilled waits, up to 20 s, until the fake Cat API has served n
// downloads and the last of them has had time to be shrunk.
func (s *stack) waitPoolFilled(n int) error {
	for range 2000 {
		if s.up.Requests(fakeup.TargetCatDownload) >= n {
			time.Sleep(500 * time.Millisecond) // the shrink of the last picture
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("%s: the pool did not fill within 20 s", s.name)
}

// close stops the bot, then the servers, and removes the state file.
func (s *stack) close() error { return s.st.Close() }
