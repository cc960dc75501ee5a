package fakeup

import (
	"errors"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Config configures a Server. Zero fields take the defaults noted on each.
type Config struct {
	// Latency is the initial per-target delay; zero for tests,
	// DefaultLatency() for the sandbox.
	Latency Latency
	// Seed makes search results and image pixels reproducible; the same
	// seed and id always give the same bytes.
	Seed uint64
	// Files is the number of files in the fake Commons category; default 20.
	Files int
	// Width and Height are the original size of a generated picture; default
	// 1600x1200. The Cat API's size=med then serves 1200x900.
	Width, Height int
}

// Server is the fake upstream. It is an http.Handler, so it can also be
// mounted on an httptest.Server; Start runs it on its own listener. It is safe
// for concurrent use.
type Server struct {
	cfg    Config
	mux    *http.ServeMux
	images *imageCache
	done   chan struct{} // closed by Close; ends hanging and streaming handlers
	wg     sync.WaitGroup

	mu        sync.Mutex // guards the fields below
	closed    bool
	faults    map[string]Fault
	latency   Latency
	counts    map[string]int
	last      map[string]Request
	rnd       *rand.Rand
	srv       *http.Server
	base      string
	serveDone chan struct{}
	// set by SetCatImage and SetCatURL
	catImage     []byte
	catImageType string
	catURL       string
}

// New returns a Server that is not yet listening.
func New(cfg Config) *Server {
	if cfg.Files <= 0 {
		cfg.Files = 20
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		cfg.Width, cfg.Height = 1600, 1200
	}
	s := &Server{
		cfg:     cfg,
		mux:     http.NewServeMux(),
		images:  newImageCache(32),
		done:    make(chan struct{}),
		faults:  map[string]Fault{},
		latency: cfg.Latency,
		counts:  map[string]int{},
		last:    map[string]Request{},
		rnd:     rand.New(rand.NewPCG(cfg.Seed, 0x5eed)),
	}
	s.mux.HandleFunc("GET /v1/images/search", s.catSearch)
	s.mux.HandleFunc("GET /cat/images/{size}/{file}", s.catDownload)
	s.mux.HandleFunc("GET /redirect", s.redirect)
	s.mux.HandleFunc("GET /w/api.php", s.commonsAPI)
	s.mux.HandleFunc("GET /wikipedia/commons/{h1}/{h2}/{name}", s.commonsOriginal)
	s.mux.HandleFunc("GET /wikipedia/commons/thumb/{h1}/{h2}/{name}/{thumb}", s.commonsThumb)
	return s
}

// Start listens on addr (use "127.0.0.1:0" for a free port), serves in the
// background and returns the base URL, such as "http://127.0.0.1:41234".
func (s *Server) Start(addr string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", errors.New("fakeup: start: server closed")
	}
	if s.srv != nil {
		return "", errors.New("fakeup: start: already started")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	s.srv = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	s.base = "http://" + ln.Addr().String()
	s.serveDone = make(chan struct{})
	go func(srv *http.Server, done chan struct{}) {
		defer close(done)
		_ = srv.Serve(ln)
	}(s.srv, s.serveDone)
	return s.base, nil
}

// Close ends hanging and streaming handlers, closes the listener and every
// connection, and returns once all handlers and the serving goroutine have
// finished. It is safe to call more than once.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	srv, serveDone := s.srv, s.serveDone
	s.mu.Unlock()

	var err error
	if srv != nil {
		err = srv.Close()
		<-serveDone
	}
	s.wg.Wait()
	return err
}

// CatAPIURL returns the base URL for CatAPIConfig.BaseURL, or "" before Start.
func (s *Server) CatAPIURL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.base
}

// Addr returns the host:port the fake listens on, or "" before Start: what
// the bot's UPSTREAM_ALLOW must list for it to be reached.
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	host, _ := strings.CutPrefix(s.base, "http://")
	return host
}

// CommonsAPIURL returns the api.php URL for CommonsConfig.APIURL, or "" before
// Start.
func (s *Server) CommonsAPIURL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.base == "" {
		return ""
	}
	return s.base + "/w/api.php"
}

// ServeHTTP routes r to the fake Cat API or the fake Commons.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		http.Error(w, "fakeup: closed", http.StatusServiceUnavailable)
		return
	}
	defer s.wg.Done()
	s.mux.ServeHTTP(w, r)
}

// enter registers a running handler unless the server is closed, so Close
// can wait for every handler it did not refuse.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	return true
}

// baseOf returns the scheme and host the client used to reach the fake, so
// absolute URLs in replies point back at it however it is mounted.
func baseOf(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}
