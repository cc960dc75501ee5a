package upstream

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
)

// A client under Hosts reaches the hooks' host:port and nothing else: not
// another port of the same host, not a public address, not a redirect.
func TestHostsOnlyTheHooks(t *testing.T) {
	var hits, other atomic.Int64
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { other.Add(1) }))
	defer elsewhere.Close()
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, elsewhere.URL, http.StatusFound)
			return
		}
		io.WriteString(w, "ok")
	}))
	defer hook.Close()
	h, err := NewHosts([]string{hook.URL + "/pogoda"})
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: h.RoundTripper(h.Transport(http.DefaultTransport.(*http.Transport))), CheckRedirect: h.CheckRedirect}
	defer hc.CloseIdleConnections()
	res, err := hc.Get(hook.URL + "/any/path")
	if err != nil {
		t.Fatalf("GET the hook's host: %v", err)
	}
	res.Body.Close()
	for _, u := range []string{elsewhere.URL, "https://example.org/", "ftp://" + url.PathEscape(hook.Listener.Addr().String())} {
		if res, err := hc.Get(u); !errors.Is(err, ErrForbidden) {
			if res != nil {
				res.Body.Close()
			}
			t.Errorf("GET %s: %v; want ErrForbidden", u, err)
		}
	}
	if res, err := hc.Get(hook.URL + "/redirect"); !errors.Is(err, ErrForbidden) {
		if res != nil {
			res.Body.Close()
		}
		t.Errorf("a redirect: %v; want ErrForbidden", err)
	}
	if other.Load() != 0 || hits.Load() != 2 {
		t.Errorf("hook hit %d times, elsewhere %d; want 2 and 0", hits.Load(), other.Load())
	}
	// The dialer refuses too, whatever reaches it.
	raw := &http.Client{Transport: h.Transport(http.DefaultTransport.(*http.Transport))}
	if _, err := raw.Get(elsewhere.URL); !errors.Is(err, ErrForbidden) {
		t.Errorf("dialing elsewhere: %v; want ErrForbidden", err)
	}
}

func TestNewHostsRefuses(t *testing.T) {
	for _, u := range []string{"ftp://h/", "http:///x", "::"} {
		if _, err := NewHosts([]string{u}); err == nil {
			t.Errorf("NewHosts(%q) = nil error", u)
		}
	}
}
