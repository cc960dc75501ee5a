package commands

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParse(t *testing.T) {
	tests := []struct {
		text               string
		wantName, wantArgs string
		wantOK             bool
	}{
		{"!pomoc", "pomoc", "", true},
		{"  !KOT  rudy kot ", "kot", "rudy kot", true},
		{"!kot,proszę", "kot", ",proszę", true},
		{"!żółw", "żółw", "", true},
		{"!cat123", "cat123", "", true},
		{"hello", "", "", false},
		{"!", "", "", false},
		{"!!!", "", "", false},
		{"! kot", "", "", false},
		{"", "", "", false},
		{"kot !kot", "", "", false},
		{"!" + strings.Repeat("a", 100), strings.Repeat("a", MaxNameRunes), "", true},
	}
	for _, tt := range tests {
		name, args, ok := Parse(tt.text)
		if name != tt.wantName || args != tt.wantArgs || ok != tt.wantOK {
			t.Errorf("Parse(%q) = %q, %q, %v; want %q, %q, %v", tt.text, name, args, ok, tt.wantName, tt.wantArgs, tt.wantOK)
		}
	}
}

func TestParseCutsLongArgsOnRuneBoundary(t *testing.T) {
	_, args, ok := Parse("!kot " + strings.Repeat("ż", 500))
	if !ok || len(args) > MaxArgsBytes || !utf8.ValidString(args) {
		t.Errorf("args of %d bytes, valid=%v; want ≤ %d valid bytes", len(args), utf8.ValidString(args), MaxArgsBytes)
	}
}

// An admin's !bot keeps what a 256-byte cut lost: a plan of 30 slots, a
// text command's text (issue 33.4); only past MaxAdminArgsBytes is it cut.
func TestParseAdminKeepsLongArgs(t *testing.T) {
	plan := strings.Repeat("testbot=pomoc@08:00,", 30)
	name, args, ok := ParseAdmin("!bot plan " + plan)
	if !ok || name != "bot" || args != "plan "+strings.TrimSpace(plan) {
		t.Errorf("ParseAdmin(!bot plan <%d bytes>) = %q, %d bytes, %v; want bot, all of it", len(plan), name, len(args), ok)
	}
	_, args, _ = ParseAdmin("!bot tekst x " + strings.Repeat("ż", MaxAdminArgsBytes))
	if len(args) > MaxAdminArgsBytes || len(args) < MaxAdminArgsBytes-1 || !utf8.ValidString(args) {
		t.Errorf("ParseAdmin of an over-long text kept %d bytes (valid %v); want ≤ %d", len(args), utf8.ValidString(args), MaxAdminArgsBytes)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"!pomoc", "!kot rudy", "!", "!!", "hello", "!żółw ąę", "!\xff\xfe", "\uFFFC !cat"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		name, args, ok := Parse(text)
		if !ok {
			if name != "" || args != "" {
				t.Fatalf("Parse(%q) not ok but gave %q %q", text, name, args)
			}
			return
		}
		if name == "" || utf8.RuneCountInString(name) > MaxNameRunes || len(args) > MaxArgsBytes {
			t.Fatalf("Parse(%q) = %q, %q: out of bounds", text, name, args)
		}
		if strings.ToLower(name) != name {
			t.Fatalf("Parse(%q) name %q not lower-case", text, name)
		}
		if utf8.ValidString(text) && !utf8.ValidString(args) {
			t.Fatalf("Parse(%q) broke a rune: %q", text, args)
		}
	})
}
