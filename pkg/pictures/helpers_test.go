package pictures

import (
	"testing"
	"time"
)

// testOptions is complete Options, changed by set: shrinking to 1280 px at
// quality 82, one picture's decode bounded at 128 MiB.
func testOptions(set ...func(*Options)) Options {
	o := Options{LongEdge: 1280, Quality: 82, MaxDecodeBytes: 128 << 20}
	for _, f := range set {
		f(&o)
	}
	return o
}

// shrinkOff turns shrinking off (testOptions(shrinkOff)): Shrink only
// verifies that a picture decodes.
func shrinkOff(o *Options) { o.LongEdge = 0 }

// testPoolConfig is a complete PoolConfig, changed by set: two pictures,
// two refills at once, 8 MiB, backoff from 1 s to 2 min, 15 s per refill.
func testPoolConfig(set ...func(*PoolConfig)) PoolConfig {
	c := PoolConfig{Size: 2, MaxBytes: 8 << 20, Concurrency: 2, BackoffMin: time.Second, BackoffMax: 2 * time.Minute, Timeout: 15 * time.Second}
	for _, f := range set {
		f(&c)
	}
	return c
}

// mustSource is NewSource(cfg); t is for the callers' symmetry.
func mustSource(t testing.TB, cfg SourceConfig) *Source {
	t.Helper()
	return NewSource(cfg)
}
