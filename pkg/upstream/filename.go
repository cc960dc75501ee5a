package upstream

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// maxNameRunes bounds the stem of a derived filename.
const maxNameRunes = 80

// thumbPrefix matches the "1280px-" that Wikimedia puts before the original
// name of a thumbnail.
var thumbPrefix = regexp.MustCompile(`^[0-9]+px-`)

// mimeExt is the canonical extension per supported MIME type, and extOK the
// extensions accepted as already matching.
var (
	mimeExt = map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "image/gif": ".gif", "image/webp": ".webp"}
	extOK   = map[string][]string{"image/jpeg": {".jpg", ".jpeg"}, "image/png": {".png"}, "image/gif": {".gif"}, "image/webp": {".webp"}}
)

// filenameFor derives a safe file name from the last path segment of rawURL:
// unescaped, thumbnail prefix removed, every rune other than a letter, digit,
// '.', '-' or '_' replaced by '_', no leading dots, at most maxNameRunes runes
// of stem, and an extension that matches mime.
func filenameFor(rawURL, mime string) string {
	base := ""
	if u, err := url.Parse(rawURL); err == nil {
		base = path.Base(u.Path)
		if un, err := url.PathUnescape(base); err == nil {
			base = un
		}
	}
	base = thumbPrefix.ReplaceAllString(base, "")
	base = sanitize(base)
	ext := strings.ToLower(path.Ext(base))
	stem := strings.TrimSuffix(base, path.Ext(base))
	want, known := mimeExt[mime]
	if !known {
		want = ext
	} else if !slices.Contains(extOK[mime], ext) {
		// The URL lied about the type, or had no extension: keep its whole
		// name as the stem and append the real extension.
		stem, ext = base, want
	}
	if r := []rune(stem); len(r) > maxNameRunes {
		stem = string(r[:maxNameRunes])
	}
	stem = strings.Trim(stem, "._-")
	if stem == "" {
		stem = "image"
	}
	return stem + ext
}

// sanitize keeps letters, digits, '.', '-' and '_', collapses every other run
// of runes into one '_' and drops leading dots.
func sanitize(s string) string {
	var b strings.Builder
	lastUnderscore := false
	for _, r := range s {
		ok := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' || r == '_'
		if !ok {
			r = '_'
		}
		if r == '_' && lastUnderscore {
			continue
		}
		lastUnderscore = r == '_'
		b.WriteRune(r)
	}
	return strings.TrimLeft(b.String(), ".")
}
