package sim

import (
	"encoding/base64"
	"net/http"
	"strings"
)

// decodeAttachment decodes one base64_attachments item: "<b64>",
// "data:<mime>;base64,<b64>" or "data:<mime>;filename=<name>;base64,<b64>", parsed the way the
// REST API's AttachmentEntry.extractMetaData does, with its error texts.
func decodeAttachment(item string) (decodedAttachment, *apiError) {
	var a decodedAttachment
	b64 := item
	idx := strings.LastIndex(item, "base64,")
	if strings.Contains(item, "data:") && idx != -1 {
		if idx == 0 {
			// The real parser slices item[:idx-1] and panics; gin recovers with an empty 500.
			return a, &apiError{status: http.StatusInternalServerError}
		}
		b64 = item[idx+len("base64,"):]
		for _, part := range strings.Split(item[:idx-1], ";") {
			if v, ok := strings.CutPrefix(part, "data:"); ok {
				a.declaredMIME = v
			}
			if v, ok := strings.CutPrefix(part, "filename="); ok {
				a.filename = v
			}
		}
	}
	if b64 == "" {
		return a, badRequest("The base64 data does not exist.")
	}
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return a, badRequest(err.Error())
	}
	a.data = data
	return a, nil
}
