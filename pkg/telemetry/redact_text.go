package telemetry

import "regexp"

// identifiers matches what must never reach a span or a log line inside
// free text such as an error message: phone numbers, UUIDs, REST group ids
// and signal-cli group ids (base64 of 32 bytes).
var identifiers = regexp.MustCompile(`\+?\d{6,}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|group\.[A-Za-z0-9+/=]+|[A-Za-z0-9+/]{43}=`)

// RedactText replaces phone numbers, UUIDs and group ids in s by REDACTED.
// Use it on error messages before they go into a span or a log line: the
// REST API's errors name recipients ("The user +49… is not registered").
func RedactText(s string) string {
	return identifiers.ReplaceAllString(s, redacted)
}

// RedactErr is RedactText of err's message ("" for nil).
func RedactErr(err error) string {
	if err == nil {
		return ""
	}
	return RedactText(err.Error())
}
