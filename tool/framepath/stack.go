package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"signal-bot/pkg/sim"
	"signal-bot/tool/internal/simstack"
)

// stack is the bot against its own simulated REST API and fake upstreams.
type stack struct{ *simstack.Stack }

// startStack starts the simulator, the fake upstreams and the bot with its
// defaults (picture pools off), and waits until the bot receives.
func startStack(webhook bool, log *slog.Logger) (*stack, error) {
	st, err := simstack.Start(simstack.Config{
		Sim:     sim.Config{Lossless: true},
		Env:     map[string]string{"POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0"},
		Webhook: webhook,
		Log:     log,
		Name:    "framepath",
	})
	if err != nil {
		return nil, err
	}
	return &stack{st}, nil
}

// pomoc delivers one !pomoc in the group testbot and waits (30 s at most)
// until its reply was sent and the bot logged the frame served.
func (s *stack) pomoc(served <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.Sim.Deliver(sim.Message{From: "+48600000001", Name: "Tester", Group: "testbot", Text: "!pomoc"}); err != nil {
		return fmt.Errorf("deliver !pomoc: %w", err)
	}
	if _, err := s.Sim.WaitSent(ctx, 1); err != nil {
		return fmt.Errorf("wait for the reply: %w", err)
	}
	select {
	case <-served:
		return nil
	case <-ctx.Done():
		return errors.New("the frame was not logged served within 30 s")
	}
}

// close stops the bot, then the servers, and removes the state file.
func (s *stack) close() error { return s.Close() }
