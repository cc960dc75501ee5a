package pipeline

import (
	"errors"
	"fmt"
	"time"
)

// Config sizes the pipeline, read from the environment by package config
// and checked there once, by Validate; New trusts it.
type Config struct {
	Limit        int           `env:"LIMIT, default=8" help:"frames handled at once"`
	QueueDepth   int           `env:"QUEUE_DEPTH, default=1000" help:"frames waiting for a slot; beyond it frames are dropped and counted"`
	FrameTimeout time.Duration `env:"FRAME_TIMEOUT, default=2m" help:"a frame's task is cancelled after this"`
	// SenderQueue is how many frames of one key may wait for their turn behind
	// the one that runs; more are dropped and counted, so a flood from one
	// sender cannot grow memory.
	SenderQueue int `env:"SENDER_QUEUE, default=16" help:"frames of one sender that may wait for their turn; more are dropped and counted"`
	// QueueBytes bounds the bytes of the frames accepted and not yet finished
	// (in the FIFO or waiting for their turn).
	QueueBytes int64 `env:"QUEUE_BYTES, default=33554432" help:"bytes of frames accepted and not yet finished; beyond it frames are dropped and counted"`
}

// Validate names each variable of c that is out of range.
func (c Config) Validate() error {
	var errs []error
	for _, v := range []struct {
		name string
		n    int64
	}{{"LIMIT", int64(c.Limit)}, {"QUEUE_DEPTH", int64(c.QueueDepth)}, {"SENDER_QUEUE", int64(c.SenderQueue)}, {"QUEUE_BYTES", c.QueueBytes}} {
		if v.n < 1 {
			errs = append(errs, fmt.Errorf("%s must be at least 1, got %d", v.name, v.n))
		}
	}
	if c.FrameTimeout <= 0 {
		errs = append(errs, fmt.Errorf("FRAME_TIMEOUT must be positive, got %s", c.FrameTimeout))
	}
	return errors.Join(errs...)
}
