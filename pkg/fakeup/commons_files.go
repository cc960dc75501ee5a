package fakeup

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// commonsFile is one file of the fake category.
type commonsFile struct {
	index  int
	name   string // "Fake_cat_007.jpg", as in upload URLs
	ext    string // jpg, png, gif or ogg
	mime   string
	width  int // 0 for the audio file
	height int
}

// file describes file i (1-based). The mix exercises the client: mostly
// landscape JPEGs, some portrait ones narrower than a 1280 px thumbnail, PNGs,
// small GIFs, and every tenth file an Ogg audio file that must be skipped.
func (s *Server) file(i int) (commonsFile, bool) {
	if i < 1 || i > s.cfg.Files {
		return commonsFile{}, false
	}
	f := commonsFile{index: i, ext: "jpg", width: s.cfg.Width, height: s.cfg.Height}
	switch {
	case i%10 == 0:
		f.ext, f.width, f.height = "ogg", 0, 0
	case i%7 == 0:
		f.ext, f.width, f.height = "gif", gifMaxWidth, gifMaxWidth*3/4
	case i%5 == 0:
		f.ext = "png"
	case i%4 == 2:
		f.width, f.height = f.height, f.width
	}
	f.mime = mimeOf[f.ext]
	if f.ext == "ogg" {
		f.mime = "application/ogg"
	}
	f.name = fmt.Sprintf("Fake_cat_%03d.%s", i, f.ext)
	return f, true
}

// fileNamed parses an upload file name back into its file.
func (s *Server) fileNamed(name string) (commonsFile, bool) {
	stem, _, _ := strings.Cut(name, ".")
	i, err := strconv.Atoi(strings.TrimPrefix(stem, "Fake_cat_"))
	if err != nil {
		return commonsFile{}, false
	}
	f, ok := s.file(i)
	return f, ok && f.name == name
}

// title is the page title of f, with spaces as MediaWiki shows it.
func (f commonsFile) title() string {
	return "File:" + strings.ReplaceAll(f.name, "_", " ")
}

// hashDir is the "a/ab" directory MediaWiki derives from the MD5 of the name.
func hashDir(name string) string {
	sum := md5.Sum([]byte(name))
	h := hex.EncodeToString(sum[:])
	return h[:1] + "/" + h[:2]
}

// originalURL and thumbURL mirror upload.wikimedia.org's layout.
func originalURL(base string, f commonsFile) string {
	return base + "/wikipedia/commons/" + hashDir(f.name) + "/" + f.name
}

func thumbURL(base string, f commonsFile, width int) string {
	return fmt.Sprintf("%s/wikipedia/commons/thumb/%s/%s/%dpx-%s", base, hashDir(f.name), f.name, width, f.name)
}

// estimatedSize is the byte size imageinfo reports. The fake does not
// encode originals just to list them, so this is an estimate.
func (f commonsFile) estimatedSize() int64 {
	px := int64(f.width) * int64(f.height)
	switch f.ext {
	case "png":
		return px * 23 / 100
	case "gif":
		return px
	case "ogg":
		return 123_456
	}
	return px * 15 / 100
}

// commonsOriginal serves /wikipedia/commons/{h1}/{h2}/{name}.
func (s *Server) commonsOriginal(w http.ResponseWriter, r *http.Request) {
	f, ok := s.fileNamed(r.PathValue("name"))
	if !ok || r.PathValue("h1")+"/"+r.PathValue("h2") != hashDir(f.name) {
		http.NotFound(w, r)
		return
	}
	s.respond(w, r, TargetCommonsDownload, kindImage, func() reply {
		if f.ext == "ogg" {
			return reply{http.StatusOK, f.mime, append([]byte("OggS"), make([]byte, 4092)...)}
		}
		return s.commonsImage(f, f.width, f.height)
	})
}

// commonsThumb serves /wikipedia/commons/thumb/{h1}/{h2}/{name}/{W}px-{name}.
// Like the real scaler it refuses to upscale.
func (s *Server) commonsThumb(w http.ResponseWriter, r *http.Request) {
	f, ok := s.fileNamed(r.PathValue("name"))
	px, rest, _ := strings.Cut(r.PathValue("thumb"), "px-")
	width, err := strconv.Atoi(px)
	if !ok || f.ext == "ogg" || err != nil || rest != f.name ||
		r.PathValue("h1")+"/"+r.PathValue("h2") != hashDir(f.name) {
		http.NotFound(w, r)
		return
	}
	if width <= 0 || width >= f.width {
		http.Error(w, "Error generating thumbnail: requested width is not smaller than the source", http.StatusBadRequest)
		return
	}
	s.respond(w, r, TargetCommonsDownload, kindImage, func() reply {
		tw, th := fit(f.width, f.height, width)
		return s.commonsImage(f, tw, th)
	})
}

// commonsImage renders file f at w x h.
func (s *Server) commonsImage(f commonsFile, w, h int) reply {
	key := fmt.Sprintf("commons/%s/%dx%d", f.name, w, h)
	data := s.images.get(key, func() []byte { return encodeImage(s.cfg.Seed, "commons/"+f.name, f.ext, w, h) })
	return reply{http.StatusOK, f.mime, data}
}
