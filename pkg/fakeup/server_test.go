package fakeup_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/fakeup"
)

func TestFaults(t *testing.T) {
	tests := []struct {
		fault      fakeup.Fault
		wantStatus int
		wantBody   string // prefix
	}{
		{fakeup.Fault5xx, http.StatusServiceUnavailable, "503"},
		{fakeup.FaultGarbageJSON, http.StatusOK, `{"batchcomplete":true,"query"`},
		{fakeup.FaultNotImage, http.StatusOK, "<!DOCTYPE html>"},
	}
	for _, tt := range tests {
		t.Run(tt.fault.String(), func(t *testing.T) {
			s, hc := start(t, fakeup.Config{})
			s.SetFault(fakeup.TargetCatSearch, tt.fault)
			status, _, body := fetch(t, hc, s.CatAPIURL()+"/v1/images/search", nil)
			if status != tt.wantStatus || !strings.HasPrefix(string(body), tt.wantBody) {
				t.Errorf("got %d %.40q; want %d %q...", status, body, tt.wantStatus, tt.wantBody)
			}
		})
	}
}

func TestHugeBodyStreams50MB(t *testing.T) {
	s, hc := start(t, fakeup.Config{})
	s.SetFault(fakeup.TargetCommonsQuery, fakeup.FaultHugeBody)
	status, hdr, body := fetch(t, hc, s.CommonsAPIURL(), nil)
	if status != http.StatusOK || hdr.Get("Content-Length") != "" || len(body) != 50<<20 {
		t.Fatalf("status %d, Content-Length %q, %d bytes; want 200, none, 50 MiB", status, hdr.Get("Content-Length"), len(body))
	}
	if body[0] != '[' || body[len(body)-1] != ']' {
		t.Errorf("huge JSON body starts %q ends %q; want [ and ]", body[0], body[len(body)-1])
	}
}

// TestHangEndsOnContextAndOnClose checks both ways a hanging handler ends,
// so neither leaks a goroutine (goleak checks at exit).
func TestHangEndsOnContextAndOnClose(t *testing.T) {
	s, hc := start(t, fakeup.Config{})
	s.SetFault(fakeup.TargetCatSearch, fakeup.FaultHang)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.CatAPIURL()+"/v1/images/search", nil)
	if res, err := hc.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		if res != nil {
			res.Body.Close()
		}
		t.Fatalf("hang with deadline: err %v; want deadline exceeded", err)
	}

	// The first request may have timed out before the server counted it (a
	// loaded machine), so wait for one more than now, not for two.
	before := s.Requests(fakeup.TargetCatSearch)
	errc := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, s.CatAPIURL()+"/v1/images/search", nil)
		res, err := hc.Do(req)
		if err == nil {
			_, err = io.ReadAll(res.Body)
			res.Body.Close()
		}
		errc <- err
	}()
	deadline := time.Now().Add(30 * time.Second)
	for s.Requests(fakeup.TargetCatSearch) <= before {
		if time.Now().After(deadline) {
			t.Fatal("the hanging request never reached the server")
		}
		time.Sleep(time.Millisecond)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := <-errc; err == nil {
		t.Errorf("request hanging across Close succeeded; want an error")
	}
}

func TestSlowDripSendsBytesUntilCancelled(t *testing.T) {
	s, hc := start(t, fakeup.Config{})
	s.SetFault(fakeup.TargetCatSearch, fakeup.FaultSlowDrip)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.CatAPIURL()+"/v1/images/search", nil)
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b := make([]byte, 1)
	if _, err := io.ReadFull(res.Body, b); err != nil || b[0] != '[' {
		t.Fatalf("first dripped byte %q, err %v; want '['", b, err)
	}
	cancel()
	if _, err := io.ReadAll(res.Body); err == nil {
		t.Errorf("reading a cancelled drip succeeded; want an error")
	}
}

func TestLatencyHonoursContext(t *testing.T) {
	s, hc := start(t, fakeup.Config{Latency: fakeup.Latency{CatSearch: time.Hour}})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.CatAPIURL()+"/v1/images/search", nil)
	if res, err := hc.Do(req); err == nil {
		res.Body.Close()
		t.Fatal("request with an hour of latency succeeded; want a deadline error")
	}
	s.SetLatency(fakeup.Latency{})
	if status, _, _ := fetch(t, hc, s.CatAPIURL()+"/v1/images/search", nil); status != http.StatusOK {
		t.Errorf("after SetLatency(zero): status %d; want 200", status)
	}
}

func TestStartTwiceAndAfterClose(t *testing.T) {
	s := fakeup.New(fakeup.Config{})
	if _, err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Start("127.0.0.1:0"); err == nil {
		t.Error("second Start succeeded; want an error")
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v; want nil", err)
	}
	if _, err := s.Start("127.0.0.1:0"); err == nil {
		t.Error("Start after Close succeeded; want an error")
	}
}

func TestSetFaultUnknownTargetPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("SetFault(\"cat.serach\") did not panic")
		}
	}()
	fakeup.New(fakeup.Config{}).SetFault("cat.serach", fakeup.FaultHang)
}

func TestDefaultLatencyIsTheMeasuredCat(t *testing.T) {
	l := fakeup.DefaultLatency()
	if l.CatSearch != 386*time.Millisecond || l.CatDownload != 684*time.Millisecond {
		t.Errorf("DefaultLatency() = %+v; want 386 ms search, 684 ms download", l)
	}
}
