package fakeup

import (
	"net/http"
	"net/url"
	"strconv"
)

// SetCatImage makes the fake CDN answer every cat picture download with data
// as ctype, such as one of the hostile pictures; nil data goes back to
// generated pictures.
func (s *Server) SetCatImage(data []byte, ctype string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catImage, s.catImageType = data, ctype
}

// SetCatURL makes every search result point at u, wherever that is; ""
// goes back to the fake CDN.
func (s *Server) SetCatURL(u string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catURL = u
}

// overrides returns what SetCatImage and SetCatURL set.
func (s *Server) overrides() (img []byte, ctype, catURL string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.catImage, s.catImageType, s.catURL
}

// RedirectURL is a URL on the fake that answers with a chain of hops 302s,
// the last of which points at to.
func (s *Server) RedirectURL(hops int, to string) string {
	return s.CatAPIURL() + "/redirect?" + url.Values{"hops": {strconv.Itoa(hops)}, "to": {to}}.Encode()
}

// redirect serves GET /redirect?hops=n&to=u: a 302 to itself with one hop
// fewer, or to u on the last hop. Every hop is counted as TargetRedirect.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request) {
	s.record(TargetRedirect, r)
	q := r.URL.Query()
	hops, _ := strconv.Atoi(q.Get("hops"))
	next := q.Get("to")
	if hops > 1 {
		next = baseOf(r) + "/redirect?" + url.Values{"hops": {strconv.Itoa(hops - 1)}, "to": {next}}.Encode()
	}
	http.Redirect(w, r, next, http.StatusFound)
}
