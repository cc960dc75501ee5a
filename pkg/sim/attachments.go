package sim

import (
	"bytes"
	"image"
	_ "image/gif"  // register GIF for image.DecodeConfig
	_ "image/jpeg" // register JPEG for image.DecodeConfig
	_ "image/png"  // register PNG for image.DecodeConfig
	"mime"
	"net/http"
	"slices"
	"strconv"

	_ "golang.org/x/image/webp" // register WebP for image.DecodeConfig
)

// msgNoAttachment is the real server's 404 text for GET /v1/attachments/{id}.
const msgNoAttachment = "No attachment with that name found"

// sniff returns the MIME type of data, detected from its content, without parameters, and
// its pixel size when it is an image Go can decode.
func sniff(data []byte) (mimeType string, width, height int) {
	mimeType = http.DetectContentType(data)
	if mt, _, err := mime.ParseMediaType(mimeType); err == nil {
		mimeType = mt
	}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		width, height = cfg.Width, cfg.Height
	}
	return mimeType, width, height
}

// extension returns the file extension signal-cli gives an attachment of mimeType.
func extension(mimeType string) string {
	switch mimeType {
	case "image/jpeg":
		return ".jpg"
	case "image/png":
		return ".png"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "text/plain":
		return ".txt"
	}
	return ".bin"
}

// storeFile keeps an incoming attachment so that GET /v1/attachments/{id} can serve it, as
// signal-cli downloads attachments before it emits the frame. It returns the new id.
func (s *Sim) storeFile(data []byte, mimeType string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	s.mu.Lock()
	defer s.mu.Unlock()
	id := make([]byte, 20)
	for i := range id {
		id[i] = alphabet[s.rng.IntN(len(alphabet))]
	}
	name := string(id) + extension(mimeType)
	s.files[name] = slices.Clone(data)
	return name
}

// handleAttachmentList serves GET /v1/attachments: the stored attachment ids.
func (s *Sim) handleAttachmentList(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	ids := make([]string, 0, len(s.files))
	for id := range s.files {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	slices.Sort(ids)
	writeJSON(w, http.StatusOK, ids)
}

// handleAttachment serves GET /v1/attachments/{id}: the raw bytes with a sniffed type.
func (s *Sim) handleAttachment(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	data, ok := s.files[r.PathValue("id")]
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, msgNoAttachment)
		return
	}
	w.Header().Set("Content-Type", http.DetectContentType(data))
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	_, _ = w.Write(data)
}

// handleAttachmentDelete serves DELETE /v1/attachments/{id}.
func (s *Sim) handleAttachmentDelete(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	_, ok := s.files[id]
	delete(s.files, id)
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, msgNoAttachment)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
