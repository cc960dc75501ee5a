package httpapi

import (
	"mime"
	"net"
	"net/http"
	"strings"
)

// loopbackHosts are the Host names always allowed: a client on the machine.
var loopbackHosts = []string{"localhost", "127.0.0.1", "::1"}

// Guard refuses what a web page in the operator's browser, or a DNS
// rebinding name, could send to the bot's endpoints: a Host header that is
// not one the operator allows (421), and a mutating request whose body is
// not declared JSON (415), which a cross-site form cannot declare without a
// CORS preflight the bot never answers. Every endpoint is behind it.
func Guard(addr string, allowedHosts []string, next http.Handler) http.Handler {
	allowed := map[string]bool{}
	for _, h := range loopbackHosts {
		allowed[h] = true
	}
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		allowed[strings.ToLower(host)] = true
	}
	for _, h := range allowedHosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			allowed[h] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowed[hostOnly(r.Host)] {
			writeError(w, http.StatusMisdirectedRequest, "host not allowed; see HTTP_ALLOWED_HOSTS")
			return
		}
		if mutating(r.Method) {
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if err != nil || mt != "application/json" {
				writeError(w, http.StatusUnsupportedMediaType, "Content-Type must be application/json")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// hostOnly is a Host header's name without its port or IPv6 brackets, in
// lower case.
func hostOnly(hostport string) string {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return strings.ToLower(strings.Trim(host, "[]"))
}

// mutating reports whether a request of this method changes something.
func mutating(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}
