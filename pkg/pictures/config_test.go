package pictures

import (
	"strings"
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

// mustSource is NewSource(cfg), failing the test on an error.
func mustSource(t testing.TB, cfg SourceConfig) *Source {
	t.Helper()
	s, err := NewSource(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The constructors and Shrink refuse a config that lacks a field they need,
// naming the field, instead of running with a value of their own.
func TestRequiresConfig(t *testing.T) {
	src := mustSource(t, SourceConfig{Name: "cat", Fetcher: &fakeFetcher{t: t}, Shrink: testOptions(), Log: discardLog()})
	pool := func(set func(*PoolConfig)) error {
		p, err := newPool(t.Context(), src, testPoolConfig(set))
		if err == nil {
			_ = p.Close(t.Context())
		}
		return err
	}
	source := func(set func(*SourceConfig)) error {
		cfg := SourceConfig{Name: "cat", Fetcher: &fakeFetcher{t: t}, Shrink: testOptions()}
		set(&cfg)
		_, err := NewSource(cfg)
		return err
	}
	shrink := func(set func(*Options)) error {
		_, err := Shrink(pngBytes(t, photo(1, 8, 8, 255)), testOptions(set))
		return err
	}
	budget := func(size int64) error {
		_, err := NewBudget(size)
		return err
	}
	tests := []struct {
		field string
		err   error
	}{
		{"PoolConfig.Size", pool(func(c *PoolConfig) { c.Size = 0 })},
		{"PoolConfig.MaxBytes", pool(func(c *PoolConfig) { c.MaxBytes = 0 })},
		{"PoolConfig.Concurrency", pool(func(c *PoolConfig) { c.Concurrency = 0 })},
		{"PoolConfig.BackoffMin", pool(func(c *PoolConfig) { c.BackoffMin = 0 })},
		{"PoolConfig.BackoffMax", pool(func(c *PoolConfig) { c.BackoffMax = c.BackoffMin / 2 })},
		{"PoolConfig.Timeout", pool(func(c *PoolConfig) { c.Timeout = 0 })},
		{"SourceConfig.Name", source(func(c *SourceConfig) { c.Name = "" })},
		{"SourceConfig.Fetcher", source(func(c *SourceConfig) { c.Fetcher = nil })},
		{"Options.Quality", source(func(c *SourceConfig) { c.Shrink.Quality = 0 })},
		{"Options.MaxDecodeBytes", source(func(c *SourceConfig) { c.Shrink.MaxDecodeBytes = 0 })},
		{"Options.Quality", shrink(func(o *Options) { o.Quality = 101 })},
		{"Options.MaxDecodeBytes", shrink(func(o *Options) { o.MaxDecodeBytes = -1 })},
		{"Budget's size", budget(0)},
	}
	for _, tt := range tests {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.field) {
			t.Errorf("without %s: %v; want an error naming it", tt.field, tt.err)
		}
	}
	for _, err := range []error{pool(func(*PoolConfig) {}), source(func(*SourceConfig) {}), shrink(func(*Options) {}), budget(1)} {
		if err != nil {
			t.Errorf("a complete config: %v; want nil", err)
		}
	}
	if err := shrink(shrinkOff); err != nil {
		t.Errorf("shrinking off: %v; want nil", err)
	}
}
