package upstream_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/upstream"
)

// testUA is the User-Agent of the tests' complete config.
var testUA = upstream.TestCommons("").UserAgent

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestCommonsRandomThumbWidth(t *testing.T) {
	// File 1 of the fake is a 1600x1200 JPEG.
	tests := []struct {
		name         string
		thumbWidth   int
		wantW, wantH int
		wantThumb    bool
	}{
		{"1280", 1280, 1280, 960, true},
		{"640", 640, 640, 480, true},
		{"wider than the original", 2000, 1600, 1200, false},
		{"originals", -1, 1600, 1200, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, hc := startFake(t, fakeup.Config{Files: 1})
			c := newCommons(t, fake.CommonsAPIURL(), hc, func(c *upstream.CommonsConfig) { c.ThumbWidth, c.Seed = tt.thumbWidth, 1 })
			img, err := c.Random(testCtx(t))
			if err != nil {
				t.Fatalf("Random: %v", err)
			}
			if img.MIME != "image/jpeg" || img.Width != tt.wantW || img.Height != tt.wantH {
				t.Errorf("got %s %dx%d; want image/jpeg %dx%d", img.MIME, img.Width, img.Height, tt.wantW, tt.wantH)
			}
			if img.Filename != "Fake_cat_001.jpg" {
				t.Errorf("Filename = %q; want Fake_cat_001.jpg", img.Filename)
			}
			if got := strings.Contains(img.SourceURL, "/thumb/"); got != tt.wantThumb {
				t.Errorf("SourceURL %q thumbnail=%v; want %v", img.SourceURL, got, tt.wantThumb)
			}
			for _, target := range []string{fakeup.TargetCommonsQuery, fakeup.TargetCommonsDownload} {
				if r, _ := fake.LastRequest(target); r.Header.Get("User-Agent") != testUA {
					t.Errorf("%s User-Agent = %q; want %q", target, r.Header.Get("User-Agent"), testUA)
				}
			}
			q, _ := fake.LastRequest(fakeup.TargetCommonsQuery)
			if q.Query.Get("gcmtype") != "file" || q.Query.Get("formatversion") != "2" || q.Query.Get("gcmtitle") != "Category:Quality images of cats" {
				t.Errorf("query %v; want gcmtype=file, formatversion=2, the default category", q.Query)
			}
		})
	}
}

func TestCommonsRandomCachesAndFilters(t *testing.T) {
	fake, hc := startFake(t, fakeup.Config{Files: 20})
	c := newCommons(t, fake.CommonsAPIURL(), hc, func(c *upstream.CommonsConfig) { c.Seed, c.ThumbWidth = 7, 320 })
	seen := map[string]bool{}
	const calls = 25
	for range calls {
		img, err := c.Random(testCtx(t))
		if err != nil {
			t.Fatalf("Random: %v", err)
		}
		switch img.MIME {
		case "image/jpeg", "image/png", "image/gif":
		default:
			t.Errorf("picked %s (%s); want only JPEG, PNG or GIF", img.Filename, img.MIME)
		}
		if img.Width > 320 {
			t.Errorf("%s is %d wide; want at most the 320 thumbnail", img.Filename, img.Width)
		}
		seen[img.Filename] = true
	}
	if got := fake.Requests(fakeup.TargetCommonsQuery); got != 1 {
		t.Errorf("%d queries for %d picks; want 1 (the list is cached)", got, calls)
	}
	if got := fake.Requests(fakeup.TargetCommonsDownload); got != calls {
		t.Errorf("%d downloads; want %d", got, calls)
	}
	if len(seen) < 5 {
		t.Errorf("only %d distinct files in %d picks; want a random spread", len(seen), calls)
	}
}

func TestCommonsSeedIsReproducible(t *testing.T) {
	fake, hc := startFake(t, fakeup.Config{Files: 20})
	var runs [2][]string
	for i := range runs {
		c := newCommons(t, fake.CommonsAPIURL(), hc, func(c *upstream.CommonsConfig) { c.Seed, c.ThumbWidth = 42, 120 })
		for range 5 {
			img, err := c.Random(testCtx(t))
			if err != nil {
				t.Fatal(err)
			}
			runs[i] = append(runs[i], img.Filename)
		}
	}
	if strings.Join(runs[0], ",") != strings.Join(runs[1], ",") {
		t.Errorf("same seed gave %v and %v; want the same picks", runs[0], runs[1])
	}
}

func TestCommonsFollowsContinuationWithinBounds(t *testing.T) {
	tests := []struct {
		files, wantQueries int
	}{
		{120, 3},  // 50 + 50 + 20
		{600, 10}, // stops at 500 candidates
	}
	for _, tt := range tests {
		fake, hc := startFake(t, fakeup.Config{Files: tt.files})
		c := newCommons(t, fake.CommonsAPIURL(), hc, func(c *upstream.CommonsConfig) { c.ThumbWidth = 120 })
		if _, err := c.Random(testCtx(t)); err != nil {
			t.Fatalf("files=%d: %v", tt.files, err)
		}
		if got := fake.Requests(fakeup.TargetCommonsQuery); got != tt.wantQueries {
			t.Errorf("files=%d: %d queries; want %d", tt.files, got, tt.wantQueries)
		}
	}
}

func TestCommonsConcurrentCallsShareOneRefresh(t *testing.T) {
	fake, hc := startFake(t, fakeup.Config{Files: 20, Latency: fakeup.Latency{CommonsQuery: 50 * time.Millisecond}})
	c := newCommons(t, fake.CommonsAPIURL(), hc, func(c *upstream.CommonsConfig) { c.ThumbWidth = 120 })
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			_, err := c.Random(testCtx(t))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Random: %v", err)
		}
	}
	if got := fake.Requests(fakeup.TargetCommonsQuery); got != 1 {
		t.Errorf("%d queries for 8 concurrent picks; want 1", got)
	}
}

func TestCommonsAPIErrorIsTyped(t *testing.T) {
	fake, hc := startFake(t, fakeup.Config{})
	c := newCommons(t, fake.CommonsAPIURL(), hc, func(c *upstream.CommonsConfig) { c.Category = "Cats" })
	_, err := c.Random(testCtx(t))
	var ue *upstream.Error
	if !errors.Is(err, upstream.ErrAPI) || !errors.As(err, &ue) || ue.Op != "commons query" {
		t.Errorf("Random with a bad category = %v; want a commons query *Error wrapping ErrAPI", err)
	}
}
