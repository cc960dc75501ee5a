package upstream_test

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"testing"
	"time"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/upstream"
)

// randomFunc is what both clients offer.
type randomFunc func(context.Context) (upstream.Image, error)

func clients(t *testing.T, fake *fakeup.Server, hc *http.Client, maxBytes int64) map[string]randomFunc {
	cat := newCatAPI(t, fake.CatAPIURL(), hc, func(c *upstream.CatAPIConfig) { c.MaxBytes = maxBytes })
	commons := newCommons(t, fake.CommonsAPIURL(), hc, func(c *upstream.CommonsConfig) {
		c.ThumbWidth, c.MaxBytes, c.Seed = 640, maxBytes, 1
	})
	return map[string]randomFunc{"cat": cat.Random, "commons": commons.Random}
}

func TestFaultsGiveTypedErrors(t *testing.T) {
	timeout := error(context.DeadlineExceeded)
	tests := []struct {
		target string
		client string
		op     string
		faults map[fakeup.Fault]error
	}{
		{fakeup.TargetCatSearch, "cat", "thecatapi search", map[fakeup.Fault]error{
			fakeup.FaultHang: timeout, fakeup.Fault5xx: upstream.ErrStatus, fakeup.FaultGarbageJSON: upstream.ErrBadJSON,
			fakeup.FaultHugeBody: upstream.ErrTooBig, fakeup.FaultSlowDrip: timeout, fakeup.FaultNotImage: upstream.ErrBadJSON,
		}},
		{fakeup.TargetCatDownload, "cat", "thecatapi download", map[fakeup.Fault]error{
			fakeup.FaultHang: timeout, fakeup.Fault5xx: upstream.ErrStatus, fakeup.FaultGarbageJSON: upstream.ErrNotImage,
			fakeup.FaultHugeBody: upstream.ErrTooBig, fakeup.FaultSlowDrip: timeout, fakeup.FaultNotImage: upstream.ErrNotImage,
		}},
		{fakeup.TargetCommonsQuery, "commons", "commons query", map[fakeup.Fault]error{
			fakeup.FaultHang: timeout, fakeup.Fault5xx: upstream.ErrStatus, fakeup.FaultGarbageJSON: upstream.ErrBadJSON,
			fakeup.FaultHugeBody: upstream.ErrTooBig, fakeup.FaultSlowDrip: timeout, fakeup.FaultNotImage: upstream.ErrBadJSON,
		}},
		{fakeup.TargetCommonsDownload, "commons", "commons download", map[fakeup.Fault]error{
			fakeup.FaultHang: timeout, fakeup.Fault5xx: upstream.ErrStatus, fakeup.FaultGarbageJSON: upstream.ErrNotImage,
			fakeup.FaultHugeBody: upstream.ErrTooBig, fakeup.FaultSlowDrip: timeout, fakeup.FaultNotImage: upstream.ErrNotImage,
		}},
	}
	for _, tt := range tests {
		for fault, want := range tt.faults {
			t.Run(tt.target+"/"+fault.String(), func(t *testing.T) {
				fake, hc := startFake(t, fakeup.Config{Files: 3})
				fake.SetFault(tt.target, fault)
				wait := 10 * time.Second
				if want == timeout {
					wait = 200 * time.Millisecond
				}
				ctx, cancel := context.WithTimeout(context.Background(), wait)
				defer cancel()
				_, err := clients(t, fake, hc, 2<<20)[tt.client](ctx)
				var ue *upstream.Error
				if !errors.As(err, &ue) || !errors.Is(err, want) {
					t.Fatalf("err = %v; want an *upstream.Error wrapping %v", err, want)
				}
				if ue.Op != tt.op {
					t.Errorf("Op = %q; want %q", ue.Op, tt.op)
				}
				if ue.Timeout() != (want == timeout) {
					t.Errorf("Timeout() = %v; want %v", ue.Timeout(), want == timeout)
				}
				if want == upstream.ErrStatus && ue.Status != http.StatusServiceUnavailable {
					t.Errorf("Status = %d; want 503", ue.Status)
				}
			})
		}
	}
}

// TestHugeBodyMemoryIsBounded checks that a 50 MB body costs about the
// read limit in allocations, not the body size.
func TestHugeBodyMemoryIsBounded(t *testing.T) {
	tests := []struct {
		target   string
		client   string
		maxBytes int64
	}{
		{fakeup.TargetCatDownload, "cat", 1 << 20},
		{fakeup.TargetCommonsDownload, "commons", 1 << 20},
		{fakeup.TargetCatSearch, "cat", 1 << 20}, // JSON is capped at 1 MiB whatever MaxBytes says
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			fake, hc := startFake(t, fakeup.Config{Files: 3})
			fake.SetFault(tt.target, fakeup.FaultHugeBody)
			random := clients(t, fake, hc, tt.maxBytes)[tt.client]
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := random(testCtx(t))
			runtime.ReadMemStats(&after)
			if !errors.Is(err, upstream.ErrTooBig) {
				t.Fatalf("err = %v; want ErrTooBig", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Errorf("allocated %d MiB reading a 50 MB body with a 1 MiB limit; want under 16 MiB", alloc>>20)
			}
		})
	}
}
