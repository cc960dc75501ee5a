package upstream

import "testing"

func TestFilenameFor(t *testing.T) {
	tests := []struct{ url, mime, want string }{
		{"https://cdn2.thecatapi.com/images/ebv.jpg", "image/jpeg", "ebv.jpg"},
		{"https://cdn2.thecatapi.com/images/ebv.JPEG", "image/jpeg", "ebv.jpeg"},
		{"https://upload.wikimedia.org/wikipedia/commons/thumb/5/58/Felis_catus-cat_on_snow.jpg/1280px-Felis_catus-cat_on_snow.jpg", "image/jpeg", "Felis_catus-cat_on_snow.jpg"},
		{"https://x/Kot%20%C5%9Bpi%C4%85cy.png", "image/png", "Kot_śpiący.png"},
		{"https://x/a.png", "image/jpeg", "a.png.jpg"},
		{"https://x/noext", "image/gif", "noext.gif"},
		{"https://x/", "image/jpeg", "image.jpg"},
		{"https://x/..%2F..%2Fetc%2Fpasswd", "image/png", "passwd.png"},
		{"https://x/.hidden.gif", "image/gif", "hidden.gif"},
		{"https://x/a%00b%0A.webp", "image/webp", "a_b.webp"},
	}
	for _, tt := range tests {
		if got := filenameFor(tt.url, tt.mime); got != tt.want {
			t.Errorf("filenameFor(%q, %q) = %q; want %q", tt.url, tt.mime, got, tt.want)
		}
	}
}

func TestFilenameForBoundsLength(t *testing.T) {
	long := "https://x/"
	for range 300 {
		long += "a"
	}
	if got := filenameFor(long+".jpg", "image/jpeg"); len([]rune(got)) != maxNameRunes+len(".jpg") {
		t.Errorf("filename of %d runes; want %d", len([]rune(got)), maxNameRunes+len(".jpg"))
	}
}
