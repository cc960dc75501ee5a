package fakeup_test

import (
	"bytes"
	"encoding/json"
	"image"
	"net/http"
	"strings"
	"testing"

	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"

	"signal-bot/pkg/fakeup"
)

type catResult struct {
	ID     string            `json:"id"`
	URL    string            `json:"url"`
	Width  int               `json:"width"`
	Height int               `json:"height"`
	Breeds []json.RawMessage `json:"breeds"`
}

func TestCatSearchHonoursSize(t *testing.T) {
	s, hc := start(t, fakeup.Config{Seed: 1})
	tests := []struct {
		size         string
		wantW, wantH int
	}{
		{"thumb", 250, 188},
		{"small", 640, 480},
		{"med", 1200, 900},
		{"full", 1600, 1200},
		{"", 1600, 1200},
	}
	for _, tt := range tests {
		t.Run("size="+tt.size, func(t *testing.T) {
			status, hdr, body := fetch(t, hc, s.CatAPIURL()+"/v1/images/search?mime_types=jpg&size="+tt.size, nil)
			if status != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
				t.Fatalf("status %d, Content-Type %q; want 200 JSON", status, hdr.Get("Content-Type"))
			}
			var got []catResult
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("decode %s: %v", body, err)
			}
			if len(got) != 1 {
				t.Fatalf("got %d results; want 1", len(got))
			}
			r := got[0]
			if !strings.HasPrefix(r.URL, s.CatAPIURL()+"/") || !strings.HasSuffix(r.URL, "/"+r.ID+".jpg") {
				t.Errorf("url = %q; want an absolute URL on the fake ending in /%s.jpg", r.URL, r.ID)
			}
			if r.Width != tt.wantW || r.Height != tt.wantH {
				t.Errorf("search says %dx%d; want %dx%d", r.Width, r.Height, tt.wantW, tt.wantH)
			}
			status, hdr, img := fetch(t, hc, r.URL, nil)
			cfg, format, err := image.DecodeConfig(bytes.NewReader(img))
			if status != http.StatusOK || err != nil || format != "jpeg" || hdr.Get("Content-Type") != "image/jpeg" {
				t.Fatalf("download: status %d, format %q, Content-Type %q, err %v", status, format, hdr.Get("Content-Type"), err)
			}
			if cfg.Width != tt.wantW || cfg.Height != tt.wantH {
				t.Errorf("image is %dx%d; want %dx%d", cfg.Width, cfg.Height, tt.wantW, tt.wantH)
			}
		})
	}
}

func TestCatSearchMIMETypesAndLimit(t *testing.T) {
	s, hc := start(t, fakeup.Config{Seed: 2})
	tests := []struct {
		name     string
		query    string
		key      string
		wantN    int
		wantExts string
	}{
		{"png only", "mime_types=png&limit=5", "", 5, ".png"},
		{"gif only", "mime_types=gif&limit=3", "", 3, ".gif"},
		{"limit capped without key", "limit=50", "", 10, ".jpg.png.gif"},
		{"limit capped with key", "limit=50", "k", 25, ".jpg.png.gif"},
		{"bad limit", "limit=x", "", 1, ".jpg.png.gif"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr := http.Header{}
			if tt.key != "" {
				hdr.Set("x-api-key", tt.key)
			}
			_, _, body := fetch(t, hc, s.CatAPIURL()+"/v1/images/search?"+tt.query, hdr)
			var got []catResult
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.wantN {
				t.Errorf("got %d results; want %d", len(got), tt.wantN)
			}
			for _, r := range got {
				ext := r.URL[strings.LastIndexByte(r.URL, '.'):]
				if !strings.Contains(tt.wantExts, ext) {
					t.Errorf("url %q has extension %q; want one of %q", r.URL, ext, tt.wantExts)
				}
			}
			last, ok := s.LastRequest(fakeup.TargetCatSearch)
			if !ok || last.Header.Get("x-api-key") != tt.key {
				t.Errorf("recorded x-api-key = %q; want %q", last.Header.Get("x-api-key"), tt.key)
			}
		})
	}
}

func TestCatDownloadDeterministicAndRejectsBadPaths(t *testing.T) {
	s, hc := start(t, fakeup.Config{Seed: 3})
	url := s.CatAPIURL() + "/cat/images/small/abc123.png"
	_, _, a := fetch(t, hc, url, nil)
	_, _, b := fetch(t, hc, url, nil)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("two downloads of %s differ (%d and %d bytes); want identical", url, len(a), len(b))
	}
	for _, p := range []string{"/cat/images/huge/abc.jpg", "/cat/images/med/abc.bmp", "/cat/images/med/a%2Fb.jpg", "/cat/images/med/abc"} {
		if status, _, _ := fetch(t, hc, s.CatAPIURL()+p, nil); status != http.StatusNotFound {
			t.Errorf("GET %s = %d; want 404", p, status)
		}
	}
	if got := s.Requests(fakeup.TargetCatDownload); got != 2 {
		t.Errorf("Requests(cat.download) = %d; want 2 (404s are not counted)", got)
	}
}
