package sim

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
)

// msgInvalidRequest is the real server's answer to a body that does not bind as JSON.
const msgInvalidRequest = "Couldn't process request - invalid request"

// maxBody caps a request body; the real server has no cap, but a simulator must not run out
// of memory on a runaway client.
const maxBody = 256 << 20

// errorBody is the real server's error object.
type errorBody struct {
	Error string `json:"error"`
}

// writeJSON answers like gin's c.JSON: json.Marshal output, no trailing newline.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"simulator: encode response"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeError answers with status and {"error":msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Error: msg})
}

// writeBindError answers a body that gin's BindJSON rejected. BindJSON writes the 400 header
// before the handler adds its JSON, so net/http sniffs the body and sends text/plain.
func writeBindError(w http.ResponseWriter) {
	b, _ := json.Marshal(errorBody{Error: msgInvalidRequest})
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(b)
}

// readBody reads the whole request body, up to maxBody bytes.
func readBody(r *http.Request) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r.Body, maxBody))
}

// bindJSON decodes body the way gin's BindJSON does: the first JSON value only, so trailing
// bytes are ignored, and an empty body is an error.
func bindJSON(body []byte, v any) error {
	return json.NewDecoder(bytes.NewReader(body)).Decode(v)
}

// pathNumber returns the account number from the {number} path segment. Both "+48…" and
// "%2B48…" arrive here as "+48…", like url.PathUnescape in the real server.
func pathNumber(r *http.Request) (string, bool) {
	n := r.PathValue("number")
	if u, err := url.PathUnescape(n); err == nil {
		n = u
	}
	return n, n != ""
}
