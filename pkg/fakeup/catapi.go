package fakeup

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// catMaxWidth is the widest picture each documented size serves; "full" (and
// an absent or unknown size) serves the original Config.Width x Height.
var catMaxWidth = map[string]int{"thumb": 250, "small": 640, "med": 1200}

// catID matches the ids the fake hands out, and nothing that could escape a path.
var catID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// catFormatWeight makes JPEG the common case, as on the real API.
var catFormatWeight = map[string]int{"jpg": 16, "png": 3, "gif": 1}

// catImage is one element of the search reply.
type catImage struct {
	ID     string     `json:"id"`
	URL    string     `json:"url"`
	Width  int        `json:"width"`
	Height int        `json:"height"`
	Breeds []catBreed `json:"breeds,omitempty"`
}

// catBreed is the subset of a breed object the fake includes.
type catBreed struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Origin      string `json:"origin"`
	Temperament string `json:"temperament"`
	LifeSpan    string `json:"life_span"`
}

var abyssinian = catBreed{ID: "abys", Name: "Abyssinian", Origin: "Egypt",
	Temperament: "Active, Energetic, Independent, Intelligent, Gentle", LifeSpan: "14 - 15"}

// catSearch serves GET /v1/images/search: a JSON array of random images,
// honouring size, mime_types and limit (at most 10 without an x-api-key
// header, 25 with one).
func (s *Server) catSearch(w http.ResponseWriter, r *http.Request) {
	s.respond(w, r, TargetCatSearch, kindJSON, func() reply {
		q := r.URL.Query()
		size := q.Get("size")
		if _, ok := catMaxWidth[size]; !ok {
			size = "full"
		}
		formats := parseMIMETypes(q.Get("mime_types"))
		maxLimit := 10
		if r.Header.Get("x-api-key") != "" {
			maxLimit = 25
		}
		limit, err := strconv.Atoi(q.Get("limit"))
		if err != nil {
			limit = 1
		}
		limit = min(max(limit, 1), maxLimit)
		out := make([]catImage, 0, limit)
		_, _, fixedURL := s.overrides()
		for range limit {
			id, ext, breed := s.randomCat(formats)
			cw, ch := s.catDims(size, ext)
			im := catImage{ID: id, URL: baseOf(r) + "/cat/images/" + size + "/" + id + "." + ext, Width: cw, Height: ch}
			if fixedURL != "" {
				im.URL = fixedURL
			}
			if breed {
				im.Breeds = []catBreed{abyssinian}
			}
			out = append(out, im)
		}
		data, _ := json.Marshal(out)
		return reply{http.StatusOK, "application/json; charset=utf-8", data}
	})
}

// catDownload serves GET /cat/images/{size}/{id}.{ext}, the fake CDN.
func (s *Server) catDownload(w http.ResponseWriter, r *http.Request) {
	size, file := r.PathValue("size"), r.PathValue("file")
	id, ext, _ := strings.Cut(file, ".")
	_, sized := catMaxWidth[size]
	if (!sized && size != "full") || !catID.MatchString(id) || mimeOf[ext] == "" {
		http.NotFound(w, r)
		return
	}
	s.respond(w, r, TargetCatDownload, kindImage, func() reply {
		if data, ctype, _ := s.overrides(); data != nil {
			return reply{http.StatusOK, ctype, data}
		}
		cw, ch := s.catDims(size, ext)
		key := "cat/" + id + "." + ext + "/" + strconv.Itoa(cw) + "x" + strconv.Itoa(ch)
		data := s.images.get(key, func() []byte { return encodeImage(s.cfg.Seed, "cat/"+id, ext, cw, ch) })
		return reply{http.StatusOK, mimeOf[ext], data}
	})
}

// catDims returns the size of a picture of format ext served at size.
func (s *Server) catDims(size, ext string) (int, int) {
	maxW := s.cfg.Width
	if m, ok := catMaxWidth[size]; ok {
		maxW = min(maxW, m)
	}
	if ext == "gif" {
		maxW = min(maxW, gifMaxWidth)
	}
	return fit(s.cfg.Width, s.cfg.Height, maxW)
}

// randomCat draws a fresh id, a format among formats and whether the image
// carries breed data.
func (s *Server) randomCat(formats []string) (id, ext string, breed bool) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	s.mu.Lock()
	defer s.mu.Unlock()
	b := make([]byte, 9)
	for i := range b {
		b[i] = alphabet[s.rnd.IntN(len(alphabet))]
	}
	total := 0
	for _, f := range formats {
		total += catFormatWeight[f]
	}
	n := s.rnd.IntN(total)
	for _, f := range formats {
		if n -= catFormatWeight[f]; n < 0 {
			ext = f
			break
		}
	}
	return string(b), ext, s.rnd.IntN(4) == 0
}

// parseMIMETypes reads the comma-separated mime_types filter; unknown
// entries are ignored and an empty filter allows every format.
func parseMIMETypes(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "jpeg" {
			f = "jpg"
		}
		if catFormatWeight[f] > 0 && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return []string{"jpg", "png", "gif"}
	}
	return out
}
