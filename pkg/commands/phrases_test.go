package commands

import (
	"strings"
	"testing"
)

// NewRegistry refuses a command whose own texts miss a language, a key or a
// verb, and takes one whose texts are whole, or a command without any.
func TestRegistryChecksPhrases(t *testing.T) {
	tests := []struct {
		name    string
		ph      Phrases
		wantErr string // "" when the command is taken
	}{
		{name: "whole", ph: Phrases{"pl": {SummaryKey("x"): "iks", "x.n": "%[1]d razy"}, "en": {SummaryKey("x"): "ex", "x.n": "%[1]d times"}}},
		{name: "no texts at all (a test's command)", ph: nil},
		{name: "no English", ph: Phrases{"pl": {SummaryKey("x"): "iks"}}, wantErr: `0 texts in "en"`},
		{name: "no summary", ph: Phrases{"pl": {"x.n": "n"}, "en": {"x.n": "n"}}, wantErr: "no Polish text for summary.x"},
		{name: "a key only in English", ph: Phrases{"pl": {SummaryKey("x"): "iks"}, "en": {SummaryKey("x"): "ex", "x.n": "n"}}, wantErr: `2 texts in "en", 1 in Polish`},
		{name: "another key in English", ph: Phrases{"pl": {SummaryKey("x"): "iks", "x.a": "a"}, "en": {SummaryKey("x"): "ex", "x.b": "b"}}, wantErr: `"en" text for x.a is ""`},
		{name: "a verb missing", ph: Phrases{"pl": {SummaryKey("x"): "iks %[1]s"}, "en": {SummaryKey("x"): "ex"}}, wantErr: "Polish's verbs [%[1]s]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRegistry(&Command{Name: "x", Phrases: tt.ph, Scope: Everywhere})
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("NewRegistry = %v; want the command taken", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("NewRegistry = %v; want an error with %q", err, tt.wantErr)
			}
		})
	}
}

// A command's own text comes in the request's language, in Polish where
// that language has none, and formatted only when given arguments.
func TestPhrasesSay(t *testing.T) {
	ph := Phrases{"pl": {"k": "%[1]d razy", "p": "100%"}, "en": {"k": "%[1]d times"}}
	tests := []struct {
		texts Texts
		key   Key
		args  []any
		want  string
	}{
		{TextsFor("en"), "k", []any{3}, "3 times"},
		{TextsFor("pl"), "k", []any{3}, "3 razy"},
		{Texts{}, "k", []any{1}, "1 razy"},
		{TextsFor("en"), "p", nil, "100%"},
	}
	for _, tt := range tests {
		if got := ph.Say(tt.texts, tt.key, tt.args...); got != tt.want {
			t.Errorf("Say(%s) in %q = %q; want %q", tt.key, tt.texts.Lang(), got, tt.want)
		}
	}
}
