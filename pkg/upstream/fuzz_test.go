package upstream

import (
	"net/url"
	"strings"
	"testing"
)

func FuzzDecodeCatSearch(f *testing.F) {
	f.Add([]byte(`[{"id":"ebv","url":"https://cdn2.thecatapi.com/images/ebv.jpg","width":176,"height":540,"breeds":[]}]`))
	f.Add([]byte(`[{"id":"x","url":"/images/x.png"}]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"message":"nope"}`))
	base, _ := url.Parse("https://api.thecatapi.com/")
	f.Fuzz(func(t *testing.T, body []byte) {
		u, err := decodeCatSearch(body, base)
		if err != nil {
			return
		}
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			t.Errorf("decodeCatSearch returned non-http url %q", u)
		}
	})
}

func FuzzDecodeCommons(f *testing.F) {
	f.Add([]byte(`{"batchcomplete":true,"continue":{"gcmcontinue":"file|X|1","continue":"gcmcontinue||"},` +
		`"query":{"pages":[{"pageid":1,"ns":6,"title":"File:A.jpg","imageinfo":[{"size":1,"width":2,"height":3,` +
		`"thumburl":"https://x/t.jpg","thumbwidth":2,"thumbheight":3,"url":"https://x/A.jpg","mime":"image/jpeg"}]}]}}`))
	f.Add([]byte(`{"error":{"code":"invalidcategory","info":"The category name you entered is not valid."}}`))
	f.Add([]byte(`{"batchcomplete":""}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		cands, _, err := decodeCommons(body)
		if err != nil && len(cands) != 0 {
			t.Errorf("decodeCommons returned %d candidates with error %v", len(cands), err)
		}
	})
}

func FuzzFilenameFor(f *testing.F) {
	f.Add("https://x/a%2F..%2Fb.jpg", "image/jpeg")
	f.Add("https://x/1280px-Cat.png", "image/png")
	f.Fuzz(func(t *testing.T, raw, mime string) {
		name := filenameFor(raw, mime)
		if name == "" || strings.ContainsAny(name, "/\\\x00") || strings.HasPrefix(name, ".") {
			t.Errorf("filenameFor(%q, %q) = %q; want a non-empty safe name", raw, mime, name)
		}
	})
}
