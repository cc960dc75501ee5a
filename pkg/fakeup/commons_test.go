package fakeup_test

import (
	"bytes"
	"encoding/json"
	"image"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"signal-bot/pkg/fakeup"
)

// v2Reply is the formatversion=2 shape the fake must produce.
type v2Reply struct {
	BatchComplete bool              `json:"batchcomplete"`
	Continue      map[string]string `json:"continue"`
	Query         *struct {
		Pages []struct {
			PageID    int    `json:"pageid"`
			NS        int    `json:"ns"`
			Title     string `json:"title"`
			ImageInfo []struct {
				Size        int64  `json:"size"`
				Width       int    `json:"width"`
				Height      int    `json:"height"`
				ThumbURL    string `json:"thumburl"`
				ThumbWidth  int    `json:"thumbwidth"`
				ThumbHeight int    `json:"thumbheight"`
				URL         string `json:"url"`
				Mime        string `json:"mime"`
			} `json:"imageinfo"`
		} `json:"pages"`
	} `json:"query"`
	Error *struct{ Code string } `json:"error"`
}

func commonsQuery(extra url.Values) url.Values {
	q := url.Values{
		"action": {"query"}, "format": {"json"}, "formatversion": {"2"},
		"generator": {"categorymembers"}, "gcmtitle": {"Category:Quality images of cats"},
		"gcmtype": {"file"}, "gcmlimit": {"50"},
		"prop": {"imageinfo"}, "iiprop": {"url|mime|size"}, "iiurlwidth": {"1280"},
	}
	for k, v := range extra {
		q[k] = v
	}
	return q
}

func getV2(t *testing.T, hc *http.Client, api string, q url.Values) v2Reply {
	t.Helper()
	status, _, body := fetch(t, hc, api+"?"+q.Encode(), nil)
	if status != http.StatusOK {
		t.Fatalf("status %d; want 200", status)
	}
	var r v2Reply
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return r
}

func TestCommonsQueryShapeAndThumbs(t *testing.T) {
	s, hc := start(t, fakeup.Config{Seed: 4, Files: 10})
	r := getV2(t, hc, s.CommonsAPIURL(), commonsQuery(nil))
	if !r.BatchComplete || r.Query == nil || r.Continue != nil {
		t.Fatalf("batchcomplete=%v query=%v continue=%v; want true, pages, no continue", r.BatchComplete, r.Query != nil, r.Continue)
	}
	if len(r.Query.Pages) != 10 {
		t.Fatalf("got %d pages; want 10", len(r.Query.Pages))
	}
	for _, p := range r.Query.Pages {
		if p.NS != 6 || !strings.HasPrefix(p.Title, "File:") || len(p.ImageInfo) != 1 {
			t.Fatalf("page %+v; want ns 6, a File: title and one imageinfo", p)
		}
		ii := p.ImageInfo[0]
		if ii.Mime == "application/ogg" {
			if ii.ThumbURL != "" {
				t.Errorf("%s: audio file has thumburl %q", p.Title, ii.ThumbURL)
			}
			continue
		}
		wantW := min(1280, ii.Width)
		if ii.ThumbWidth != wantW || ii.Size <= 0 || !strings.HasPrefix(ii.URL, s.CatAPIURL()+"/wikipedia/commons/") {
			t.Errorf("%s: thumbwidth %d size %d url %q; want %d, >0, on the fake", p.Title, ii.ThumbWidth, ii.Size, ii.URL, wantW)
		}
		if ii.Width <= 1280 && ii.ThumbURL != ii.URL {
			t.Errorf("%s: unscaled file has thumburl %q != url %q", p.Title, ii.ThumbURL, ii.URL)
		}
		status, hdr, img := fetch(t, hc, ii.ThumbURL, nil)
		cfg, _, err := image.DecodeConfig(bytes.NewReader(img))
		if status != http.StatusOK || err != nil || hdr.Get("Content-Type") != ii.Mime {
			t.Fatalf("%s: thumb status %d Content-Type %q err %v", p.Title, status, hdr.Get("Content-Type"), err)
		}
		if cfg.Width != ii.ThumbWidth || cfg.Height != ii.ThumbHeight {
			t.Errorf("%s: thumb is %dx%d; imageinfo says %dx%d", p.Title, cfg.Width, cfg.Height, ii.ThumbWidth, ii.ThumbHeight)
		}
	}
}

func TestCommonsQueryContinuation(t *testing.T) {
	s, hc := start(t, fakeup.Config{Files: 25})
	q := commonsQuery(url.Values{"gcmlimit": {"10"}, "iiprop": {"mime"}})
	seen := map[int]bool{}
	for page := 0; page < 10; page++ {
		r := getV2(t, hc, s.CommonsAPIURL(), q)
		for _, p := range r.Query.Pages {
			if seen[p.PageID] {
				t.Fatalf("page %d listed twice", p.PageID)
			}
			seen[p.PageID] = true
		}
		if r.Continue == nil {
			break
		}
		for k, v := range r.Continue {
			q.Set(k, v)
		}
	}
	if len(seen) != 25 || s.Requests(fakeup.TargetCommonsQuery) != 3 {
		t.Errorf("saw %d files in %d requests; want 25 in 3", len(seen), s.Requests(fakeup.TargetCommonsQuery))
	}
}

func TestCommonsQueryErrorsAndFilters(t *testing.T) {
	s, hc := start(t, fakeup.Config{})
	tests := []struct {
		name      string
		extra     url.Values
		wantCode  string
		wantPages bool
	}{
		{"no title", url.Values{"gcmtitle": {""}}, "missingparam", false},
		{"not a category", url.Values{"gcmtitle": {"Cats"}}, "invalidcategory", false},
		{"bad continue", url.Values{"gcmcontinue": {"nonsense"}}, "badcontinue", false},
		{"subcats only", url.Values{"gcmtype": {"subcat"}}, "", false},
		{"default type includes files", url.Values{"gcmtype": {""}}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := getV2(t, hc, s.CommonsAPIURL(), commonsQuery(tt.extra))
			gotCode := ""
			if r.Error != nil {
				gotCode = r.Error.Code
			}
			if gotCode != tt.wantCode || (r.Query != nil) != tt.wantPages {
				t.Errorf("error code %q, pages %v; want %q, %v", gotCode, r.Query != nil, tt.wantCode, tt.wantPages)
			}
		})
	}
}

func TestCommonsFormatVersion1(t *testing.T) {
	s, hc := start(t, fakeup.Config{Files: 3})
	q := commonsQuery(nil)
	q.Del("formatversion")
	_, _, body := fetch(t, hc, s.CommonsAPIURL()+"?"+q.Encode(), nil)
	var r struct {
		BatchComplete string `json:"batchcomplete"`
		Query         struct {
			Pages map[string]json.RawMessage `json:"pages"`
		} `json:"query"`
	}
	if err := json.Unmarshal(body, &r); err != nil || len(r.Query.Pages) != 3 {
		t.Errorf("v1 reply %s: err %v, %d pages; want an object of 3 pages", body, err, len(r.Query.Pages))
	}
}

func TestCommonsThumbRefusesUpscaleAndBadPaths(t *testing.T) {
	s, hc := start(t, fakeup.Config{Files: 3})
	r := getV2(t, hc, s.CommonsAPIURL(), commonsQuery(url.Values{"iiurlwidth": {"640"}}))
	thumb := r.Query.Pages[0].ImageInfo[0].ThumbURL
	tests := []struct {
		name, url  string
		wantStatus int
	}{
		{"scaled", thumb, http.StatusOK},
		{"upscale", strings.Replace(thumb, "/640px-", "/4000px-", 1), http.StatusBadRequest},
		{"wrong hash dir", strings.Replace(thumb, "/thumb/", "/thumb/0/00/x/", 1), http.StatusNotFound},
		{"unknown file", s.CatAPIURL() + "/wikipedia/commons/a/ab/Fake_cat_999.jpg", http.StatusNotFound},
	}
	for _, tt := range tests {
		if status, _, _ := fetch(t, hc, tt.url, nil); status != tt.wantStatus {
			t.Errorf("%s: GET %s = %d; want %d", tt.name, tt.url, status, tt.wantStatus)
		}
	}
}
