package upstream

import (
	"encoding/json"
	"fmt"
)

// mwReply is the formatversion=2 reply of action=query with
// generator=categorymembers and prop=imageinfo.
type mwReply struct {
	Continue map[string]string `json:"continue"`
	Query    *struct {
		Pages []mwPage `json:"pages"`
	} `json:"query"`
	Error *struct {
		Code string `json:"code"`
		Info string `json:"info"`
	} `json:"error"`
}

// mwPage is one file page of the reply.
type mwPage struct {
	PageID    int           `json:"pageid"`
	NS        int           `json:"ns"`
	Title     string        `json:"title"`
	Missing   bool          `json:"missing"`
	ImageInfo []mwImageInfo `json:"imageinfo"`
}

// mwImageInfo holds the iiprop=url|mime|size fields, plus the thumbnail
// fields that iiurlwidth adds.
type mwImageInfo struct {
	Size        int64  `json:"size"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	ThumbURL    string `json:"thumburl"`
	ThumbWidth  int    `json:"thumbwidth"`
	ThumbHeight int    `json:"thumbheight"`
	URL         string `json:"url"`
	Mime        string `json:"mime"`
}

// candidate is a file that Random may pick.
type candidate struct {
	Title    string
	URL      string
	ThumbURL string
	MIME     string
	Size     int64
}

// decodeCommons decodes one reply into its candidates (unfiltered) and the
// continuation parameters for the next request (nil when the listing is
// complete). A reply without "query" is an empty category, not an error.
func decodeCommons(body []byte) ([]candidate, map[string]string, error) {
	var r mwReply
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrBadJSON, err)
	}
	if r.Error != nil {
		return nil, nil, fmt.Errorf("%w: %s: %s", ErrAPI, r.Error.Code, r.Error.Info)
	}
	if r.Query == nil {
		return nil, r.Continue, nil
	}
	out := make([]candidate, 0, len(r.Query.Pages))
	for _, p := range r.Query.Pages {
		if p.Missing || len(p.ImageInfo) == 0 {
			continue
		}
		ii := p.ImageInfo[0]
		out = append(out, candidate{Title: p.Title, URL: ii.URL, ThumbURL: ii.ThumbURL, MIME: ii.Mime, Size: ii.Size})
	}
	return out, r.Continue, nil
}
