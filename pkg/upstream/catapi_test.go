package upstream_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/upstream"
)

func TestCatAPIRandom(t *testing.T) {
	// Sizes as the fake serves them from a 1600x1200 original.
	tests := []struct {
		name         string
		size, mimes  string
		apiKey       string
		wantMIME     string
		wantW, wantH int
	}{
		{"thumb", "thumb", "jpg", "", "image/jpeg", 250, 188},
		{"small", "small", "jpg", "", "image/jpeg", 640, 480},
		{"med", "med", "jpg", "", "image/jpeg", 1200, 900},
		{"full", "full", "jpg", "", "image/jpeg", 1600, 1200},
		{"png with key", "small", "png", "secret-key", "image/png", 640, 480},
		{"gif", "med", "gif", "", "image/gif", 480, 360},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, hc := startFake(t, fakeup.Config{Seed: 1})
			c := newCatAPI(t, fake.CatAPIURL(), hc, func(c *upstream.CatAPIConfig) {
				c.APIKey, c.Size, c.MIMETypes = tt.apiKey, tt.size, tt.mimes
			})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			img, err := c.Random(ctx)
			if err != nil {
				t.Fatalf("Random: %v", err)
			}
			if img.MIME != tt.wantMIME || img.Width != tt.wantW || img.Height != tt.wantH {
				t.Errorf("got %s %dx%d; want %s %dx%d", img.MIME, img.Width, img.Height, tt.wantMIME, tt.wantW, tt.wantH)
			}
			if !strings.HasPrefix(img.SourceURL, fake.CatAPIURL()+"/cat/images/") || len(img.Data) == 0 {
				t.Errorf("SourceURL %q, %d bytes; want a fake CDN URL and data", img.SourceURL, len(img.Data))
			}
			if ext := "." + strings.TrimPrefix(tt.wantMIME, "image/"); !strings.HasSuffix(strings.Replace(img.Filename, ".jpg", ".jpeg", 1), ext) {
				t.Errorf("Filename %q; want extension %s", img.Filename, ext)
			}
			search, _ := fake.LastRequest(fakeup.TargetCatSearch)
			if got := search.Query.Get("size"); got != tt.size {
				t.Errorf("size param = %q; want %q", got, tt.size)
			}
			if got := search.Header.Get("x-api-key"); got != tt.apiKey {
				t.Errorf("x-api-key = %q; want %q", got, tt.apiKey)
			}
			if dl, _ := fake.LastRequest(fakeup.TargetCatDownload); dl.Header.Get("x-api-key") != "" {
				t.Errorf("the API key was sent to the image host")
			}
		})
	}
}

func TestCatAPICanceledContext(t *testing.T) {
	fake, hc := startFake(t, fakeup.Config{})
	c := newCatAPI(t, fake.CatAPIURL(), hc, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Random(ctx); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("Random(canceled) = %v; want context canceled", err)
	}
	if n := fake.Requests(fakeup.TargetCatSearch); n != 0 {
		t.Errorf("a canceled call reached the server %d times", n)
	}
}

func TestNames(t *testing.T) {
	if got := newCatAPI(t, "http://127.0.0.1:1", nil, nil).Name(); got != "thecatapi" {
		t.Errorf("CatAPI.Name() = %q; want thecatapi", got)
	}
	if got := newCommons(t, "http://127.0.0.1:1", nil, nil).Name(); got != "commons" {
		t.Errorf("Commons.Name() = %q; want commons", got)
	}
}
