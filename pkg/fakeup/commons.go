package fakeup

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

const (
	pageIDBase      = 100_000
	gcmDefaultLimit = 10  // MediaWiki's default for cmlimit
	gcmMaxLimit     = 500 // "max" for a client without apihighlimits
)

// commonsAPI serves GET /w/api.php for action=query&generator=categorymembers
// with prop=imageinfo. Any gcmtitle in the Category namespace lists the fake
// files; gcmtype, gcmlimit, gcmcontinue, iiprop, iiurlwidth and formatversion
// are honoured. Errors are MediaWiki error objects with status 200.
func (s *Server) commonsAPI(w http.ResponseWriter, r *http.Request) {
	s.respond(w, r, TargetCommonsQuery, kindJSON, func() reply {
		q := r.URL.Query()
		if code, info := checkCommonsQuery(q.Get); code != "" {
			return mwErrorReply(code, info)
		}
		from := 1
		if c := q.Get("gcmcontinue"); c != "" {
			id, ok := parseContinue(c)
			if !ok {
				return mwErrorReply("badcontinue", "Invalid continue param. You should pass the original value returned by the previous query.")
			}
			from = id - pageIDBase
		}
		limit := gcmDefaultLimit
		if l := q.Get("gcmlimit"); l == "max" {
			limit = gcmMaxLimit
		} else if n, err := strconv.Atoi(l); err == nil {
			limit = min(max(n, 1), gcmMaxLimit)
		}
		if !hasValue(q.Get("gcmtype"), "file", true) {
			return s.mwReply(q.Get("formatversion"), nil, nil)
		}
		var pages []mwPage
		for i := from; i < from+limit; i++ {
			f, ok := s.file(i)
			if !ok {
				break
			}
			pages = append(pages, s.page(baseOf(r), f, q.Get))
		}
		var cont map[string]string
		if next, ok := s.file(from + limit); ok {
			cont = map[string]string{"gcmcontinue": continueToken(next), "continue": "gcmcontinue||"}
		}
		return s.mwReply(q.Get("formatversion"), pages, cont)
	})
}

// checkCommonsQuery returns the MediaWiki error code and text for a request
// the fake cannot answer, or "" when it is fine.
func checkCommonsQuery(get func(string) string) (code, info string) {
	switch {
	case get("action") != "query":
		return "badvalue", fmt.Sprintf("Unrecognized value for parameter \"action\": %s.", get("action"))
	case get("format") != "json":
		return "badvalue", "fakeup only serves format=json."
	case get("generator") != "categorymembers":
		return "badvalue", "fakeup only serves generator=categorymembers."
	case get("gcmtitle") == "":
		return "missingparam", "One of the parameters \"gcmtitle\" and \"gcmpageid\" is required."
	case !strings.HasPrefix(get("gcmtitle"), "Category:"):
		return "invalidcategory", "The category name you entered is not valid."
	}
	return "", ""
}

// page builds the page object of f, with imageinfo if prop=imageinfo.
func (s *Server) page(base string, f commonsFile, get func(string) string) mwPage {
	p := mwPage{PageID: pageIDBase + f.index, NS: 6, Title: f.title(), ImageRepository: "local"}
	if !hasValue(get("prop"), "imageinfo", false) {
		return p
	}
	iiprop := get("iiprop")
	if iiprop == "" {
		iiprop = "timestamp|user"
	}
	var ii mwImageInfo
	if hasValue(iiprop, "size", false) || hasValue(iiprop, "dimensions", false) {
		size, w, h := f.estimatedSize(), f.width, f.height
		ii.Size, ii.Width, ii.Height = &size, &w, &h
	}
	if hasValue(iiprop, "url", false) {
		urlwidth, _ := strconv.Atoi(get("iiurlwidth"))
		if urlwidth > 0 && f.width > 0 {
			thumbInfo(&ii, base, f, urlwidth)
		}
		ii.URL = originalURL(base, f)
		ii.DescriptionURL = base + "/wiki/" + strings.ReplaceAll(f.title(), " ", "_")
		ii.DescriptionShortURL = base + "/w/index.php?curid=" + strconv.Itoa(p.PageID)
	}
	if hasValue(iiprop, "mime", false) {
		ii.Mime = f.mime
	}
	p.ImageInfo = []mwImageInfo{ii}
	return p
}

// thumbInfo fills the thumbnail fields for a request of width px. As in
// MediaWiki, a file no wider than the request is not scaled: thumburl is
// the original and thumbwidth/thumbheight are its own size.
func thumbInfo(ii *mwImageInfo, base string, f commonsFile, width int) {
	if width >= f.width {
		ii.ThumbURL, ii.ThumbWidth, ii.ThumbHeight = originalURL(base, f), f.width, f.height
		return
	}
	ii.ThumbURL = thumbURL(base, f, width)
	ii.ThumbWidth, ii.ThumbHeight = fit(f.width, f.height, width)
	for _, d := range []struct {
		key   string
		num10 int
	}{{"1.5", 15}, {"2", 20}} {
		if hw := width * d.num10 / 10; hw < f.width {
			if ii.ResponsiveURLs == nil {
				ii.ResponsiveURLs = map[string]string{}
			}
			ii.ResponsiveURLs[d.key] = thumbURL(base, f, hw)
		}
	}
}

// mwReply encodes pages in the shape formatversion asks for.
func (s *Server) mwReply(formatversion string, pages []mwPage, cont map[string]string) reply {
	var v any
	if formatversion == "2" || formatversion == "latest" {
		r := mwReplyV2{BatchComplete: true, Continue: cont}
		if len(pages) > 0 {
			r.Query = &mwQueryV2{Pages: pages}
		}
		v = r
	} else {
		r := mwReplyV1{BatchComplete: "", Continue: cont}
		if len(pages) > 0 {
			r.Query = &mwQueryV1{Pages: map[string]mwPage{}}
			for _, p := range pages {
				r.Query.Pages[strconv.Itoa(p.PageID)] = p
			}
		}
		v = r
	}
	data, _ := json.Marshal(v)
	return reply{http.StatusOK, "application/json; charset=utf-8", data}
}

// mwErrorReply is a MediaWiki error object.
func mwErrorReply(code, info string) reply {
	var e mwError
	e.Error.Code, e.Error.Info = code, info
	e.Error.Docref = "See /w/api.php for API usage."
	e.ServedBy = "fakeup"
	data, _ := json.Marshal(e)
	return reply{http.StatusOK, "application/json; charset=utf-8", data}
}

// continueToken mimics categorymembers' "type|hexsortkey|pageid" token.
func continueToken(f commonsFile) string {
	return fmt.Sprintf("file|%X|%d", strings.ToUpper(f.name), pageIDBase+f.index)
}

// parseContinue returns the page id at the end of a continue token.
func parseContinue(tok string) (int, bool) {
	i := strings.LastIndexByte(tok, '|')
	if !strings.HasPrefix(tok, "file|") || i < 0 {
		return 0, false
	}
	id, err := strconv.Atoi(tok[i+1:])
	return id, err == nil && id > pageIDBase
}

// hasValue reports whether the "|"-separated list v contains want; an empty
// list counts as containing everything when emptyMeansAll is set.
func hasValue(v, want string, emptyMeansAll bool) bool {
	if v == "" {
		return emptyMeansAll
	}
	for _, x := range strings.Split(v, "|") {
		if x == want {
			return true
		}
	}
	return false
}
