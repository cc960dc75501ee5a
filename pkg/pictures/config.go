package pictures

import (
	"errors"
	"fmt"
	"time"
)

// Config configures the prefetch pools and the shrinking of pictures, read
// from the environment by package config and checked there once, by
// Validate; Start trusts it.
type Config struct {
	PoolSizeCat       int           `env:"POOL_SIZE_CAT, default=3" help:"pictures !cat keeps ready (fetched, checked, shrunk); 0 turns its pool off"`
	PoolSizeKot       int           `env:"POOL_SIZE_KOT, default=3" help:"pictures !kot keeps ready; 0 turns its pool off"`
	PoolMaxBytes      int64         `env:"POOL_MAX_BYTES, default=8388608" help:"bytes of ready pictures (base64 data URIs) one pool may hold"`
	PoolConcurrency   int           `env:"POOL_REFILL_CONCURRENCY, default=2" help:"refills one pool runs at once"`
	PoolBackoffMin    time.Duration `env:"POOL_BACKOFF_MIN, default=1s" help:"wait after a failed refill, doubled per failure in a row"`
	PoolBackoffMax    time.Duration `env:"POOL_BACKOFF_MAX, default=2m" help:"longest wait between failed refills"`
	ShrinkLongEdge    int           `env:"SHRINK_LONG_EDGE, default=1280" help:"pictures are scaled down to this long edge (px) and re-encoded as JPEG; 0 turns shrinking off"`
	ShrinkQuality     int           `env:"SHRINK_QUALITY, default=82" help:"JPEG quality of re-encoded pictures, 1-100"`
	ShrinkKeepBytes   int           `env:"SHRINK_KEEP_BYTES, default=163840" help:"a picture within the long edge and at most this many bytes is sent as it came"`
	ShrinkGIFMaxBytes int           `env:"SHRINK_GIF_MAX_BYTES, default=1048576" help:"largest animated GIF sent as it came; larger ones send their first frame"`
	DecodeBudget      int64         `env:"DECODE_BUDGET_BYTES, default=134217728" help:"memory all picture decodes may hold at once; a picture whose header promises more is refused (docs/pictures.md)"`
}

// PoolSize is the configured pool size of command, 0 for a command without one.
func (p Config) PoolSize(command string) int {
	switch command {
	case "cat":
		return p.PoolSizeCat
	case "kot":
		return p.PoolSizeKot
	}
	return 0
}

// Validate names each variable of p that is out of range.
func (p Config) Validate() error {
	var errs []error
	add := func(bad bool, format string, args ...any) {
		if bad {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	add(p.PoolSizeCat < 0, "POOL_SIZE_CAT must not be negative, got %d", p.PoolSizeCat)
	add(p.PoolSizeKot < 0, "POOL_SIZE_KOT must not be negative, got %d", p.PoolSizeKot)
	add(p.PoolMaxBytes < 1, "POOL_MAX_BYTES must be at least 1, got %d", p.PoolMaxBytes)
	add(p.PoolConcurrency < 1, "POOL_REFILL_CONCURRENCY must be at least 1, got %d", p.PoolConcurrency)
	add(p.PoolBackoffMin <= 0 || p.PoolBackoffMax < p.PoolBackoffMin,
		"POOL_BACKOFF_MIN must be positive and at most POOL_BACKOFF_MAX, got %s and %s", p.PoolBackoffMin, p.PoolBackoffMax)
	add(p.ShrinkLongEdge < 0, "SHRINK_LONG_EDGE must not be negative, got %d", p.ShrinkLongEdge)
	add(p.ShrinkQuality < 1 || p.ShrinkQuality > 100, "SHRINK_QUALITY must be 1 to 100, got %d", p.ShrinkQuality)
	add(p.DecodeBudget < 1<<20, "DECODE_BUDGET_BYTES must be at least 1048576, got %d", p.DecodeBudget)
	add(p.ShrinkKeepBytes < 0 || p.ShrinkGIFMaxBytes < 0, "SHRINK_KEEP_BYTES and SHRINK_GIF_MAX_BYTES must not be negative")
	return errors.Join(errs...)
}

// Shrink is the Options of the checked settings.
func (p Config) Shrink() Options {
	return Options{
		LongEdge: p.ShrinkLongEdge, Quality: p.ShrinkQuality, KeepBytes: p.ShrinkKeepBytes, GIFMaxBytes: p.ShrinkGIFMaxBytes,
		MaxDecodeBytes: p.DecodeBudget,
	}
}
