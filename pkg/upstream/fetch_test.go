package upstream

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestGetRejectsDeclaredLengthBeforeReading checks that a Content-Length
// over the limit fails without reading the body.
func TestGetRejectsDeclaredLengthBeforeReading(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "1073741824")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("only a little"))
	}))
	defer srv.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	_, err := get(context.Background(), &http.Client{Transport: tr}, "test op", srv.URL, nil, 1<<20)
	var ue *Error
	if !errors.Is(err, ErrTooBig) || !errors.As(err, &ue) || ue.Status != http.StatusOK {
		t.Errorf("get = %v; want an *Error with status 200 wrapping ErrTooBig", err)
	}
}

func TestEmptyRepliesAreErrNoImages(t *testing.T) {
	tests := []struct {
		name string
		body string
		run  func(hc *http.Client, url string) error
	}{
		{"cat search []", `[]`, func(hc *http.Client, url string) error {
			c, err := NewCatAPI(hc, testCatAPI(url))
			if err != nil {
				return err
			}
			_, err = c.Random(context.Background())
			return err
		}},
		{"commons only audio", `{"batchcomplete":true,"query":{"pages":[{"pageid":1,"ns":6,"title":"File:A.ogg",` +
			`"imageinfo":[{"url":"https://x/A.ogg","mime":"application/ogg","size":10}]}]}}`,
			func(hc *http.Client, url string) error {
				_, err := NewCommons(hc, testCommons(url)).Random(context.Background())
				return err
			}},
		{"commons empty category", `{"batchcomplete":true}`, func(hc *http.Client, url string) error {
			_, err := NewCommons(hc, testCommons(url)).Random(context.Background())
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			if err := tt.run(&http.Client{Transport: tr}, srv.URL); !errors.Is(err, ErrNoImages) {
				t.Errorf("err = %v; want ErrNoImages", err)
			}
		})
	}
}
