package sim

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// shutdownGrace bounds how long Close waits for in-flight HTTP requests.
const shutdownGrace = 5 * time.Second

// errClosed reports that the simulator was closed while a request was waiting.
var errClosed = errors.New("simulator closed")

// routes registers the REST API's endpoints and the control endpoints.
func (s *Sim) routes() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET /v1/receive/{number}", s.handleReceive)
	m.HandleFunc("POST /v2/send", s.handleSend)
	m.HandleFunc("GET /v1/about", s.handleAbout)
	m.HandleFunc("GET /v1/health", s.handleHealth)
	m.HandleFunc("GET /v1/groups/{number}", s.handleGroups)
	m.HandleFunc("GET /v1/groups/{number}/{id}", s.handleGroup)
	m.HandleFunc("PUT /v1/typing-indicator/{number}", s.handleTyping)
	m.HandleFunc("DELETE /v1/typing-indicator/{number}", s.handleTyping)
	m.HandleFunc("POST /v1/reactions/{number}", s.handleReaction)
	m.HandleFunc("DELETE /v1/reactions/{number}", s.handleReaction)
	m.HandleFunc("POST /v1/receipts/{number}", s.handleReceipt)
	m.HandleFunc("POST /v1/accounts/{number}/rate-limit-challenge", s.handleChallenge)
	m.HandleFunc("GET /v1/attachments", s.handleAttachmentList)
	m.HandleFunc("GET /v1/attachments/{id}", s.handleAttachment)
	m.HandleFunc("DELETE /v1/attachments/{id}", s.handleAttachmentDelete)
	s.controlRoutes(m)
	return m
}

// ServeHTTP serves the REST API and the control endpoints. Unknown routes and methods,
// HEAD included, get the real server's (gin's) plain-text 404.
func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// gin routes HEAD nowhere, while ServeMux would serve it with the GET handler.
	if _, pattern := s.mux.Handler(r); pattern == "" || r.Method == http.MethodHead {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte("404 page not found"))
		return
	}
	s.log.DebugContext(r.Context(), "request", "method", r.Method, "path", r.URL.Path)
	s.stats.inFlight.Add(1)
	defer s.stats.inFlight.Add(-1)
	s.mux.ServeHTTP(w, r) // sets the path values, which Handler does not
}

// Start listens on addr (for example "127.0.0.1:0") and serves in the background. It returns
// the base URL, such as "http://127.0.0.1:9922".
func (s *Sim) Start(addr string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", fmt.Errorf("start simulator on %s: %w", addr, errClosed)
	}
	if s.srv != nil {
		return "", fmt.Errorf("start simulator on %s: already started", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("start simulator: %w", err)
	}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.serveDone = make(chan struct{})
	go func(srv *http.Server, done chan struct{}) {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("simulator stopped serving", "err", err)
		}
	}(s.srv, s.serveDone)
	url := "http://" + ln.Addr().String()
	s.log.Info("simulated signal-cli-rest-api listening", "url", url, "number", s.number)
	return url, nil
}

// Close stops the server, ends every websocket connection, wakes requests that sleep or hang,
// and waits for all goroutines the simulator started. It is safe to call more than once.
func (s *Sim) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	srv, serveDone := s.srv, s.serveDone
	s.mu.Unlock()

	s.Disconnect()
	var err error
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		if e := srv.Shutdown(ctx); e != nil {
			err = fmt.Errorf("shut down simulator: %w", e)
			_ = srv.Close()
		}
		cancel()
		<-serveDone
	}
	s.wg.Wait()
	return err
}

// track counts a long-lived goroutine so that Close can wait for it. It reports false once
// the simulator is closed, and then the caller must not start.
func (s *Sim) track() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	return true
}

// sleep waits for d inside a handler, or until ctx ends (the client is gone: the caller
// just returns) or the simulator closes. On close it aborts the response, so the client
// sees a broken connection, as from a stopped server, rather than an empty 200.
func (s *Sim) sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		panic(http.ErrAbortHandler)
	}
}
