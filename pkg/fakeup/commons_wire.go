package fakeup

// The JSON shapes of the MediaWiki Action API reply to action=query with
// generator=categorymembers and prop=imageinfo. Field order follows
// ApiQueryImageInfo::getInfo so the bytes look like the real thing.

// mwPage is one page of query.pages.
type mwPage struct {
	PageID          int           `json:"pageid"`
	NS              int           `json:"ns"`
	Title           string        `json:"title"`
	ImageRepository string        `json:"imagerepository"`
	ImageInfo       []mwImageInfo `json:"imageinfo,omitempty"`
}

// mwImageInfo holds the iiprop=size|url|mime fields and the thumbnail fields
// that iiurlwidth adds.
type mwImageInfo struct {
	Size                *int64            `json:"size,omitempty"`
	Width               *int              `json:"width,omitempty"`
	Height              *int              `json:"height,omitempty"`
	ThumbURL            string            `json:"thumburl,omitempty"`
	ThumbWidth          int               `json:"thumbwidth,omitempty"`
	ThumbHeight         int               `json:"thumbheight,omitempty"`
	ResponsiveURLs      map[string]string `json:"responsiveUrls,omitempty"`
	URL                 string            `json:"url,omitempty"`
	DescriptionURL      string            `json:"descriptionurl,omitempty"`
	DescriptionShortURL string            `json:"descriptionshorturl,omitempty"`
	Mime                string            `json:"mime,omitempty"`
}

// mwReplyV2 is the formatversion=2 reply: booleans are true/absent and
// query.pages is an array.
type mwReplyV2 struct {
	BatchComplete bool              `json:"batchcomplete"`
	Continue      map[string]string `json:"continue,omitempty"`
	Query         *mwQueryV2        `json:"query,omitempty"`
}

type mwQueryV2 struct {
	Pages []mwPage `json:"pages"`
}

// mwReplyV1 is the legacy formatversion=1 reply: batchcomplete is "" and
// query.pages is an object keyed by page id.
type mwReplyV1 struct {
	BatchComplete string            `json:"batchcomplete"`
	Continue      map[string]string `json:"continue,omitempty"`
	Query         *mwQueryV1        `json:"query,omitempty"`
}

type mwQueryV1 struct {
	Pages map[string]mwPage `json:"pages"`
}

// mwError is the body of an API error; MediaWiki answers these with 200.
type mwError struct {
	Error struct {
		Code   string `json:"code"`
		Info   string `json:"info"`
		Docref string `json:"docref"`
	} `json:"error"`
	ServedBy string `json:"servedby"`
}
