package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"signal-bot/pkg/sim"
)

// send posts one text reply to the test group through the simulator's own
// handler, as the bot's POST /v2/send does.
func send(tb testing.TB, s *sim.Sim, text string) {
	tb.Helper()
	body, _ := json.Marshal(map[string]any{"number": s.Number(), "recipients": []string{sim.TestGroup().ID()}, "message": text})
	req := httptest.NewRequest(http.MethodPost, "/v2/send", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		tb.Fatalf("POST /v2/send: %d %s", rec.Code, rec.Body.String())
	}
}

// The printer prints each send once, in order, as it looks in the chat.
func TestReplyPrinter(t *testing.T) {
	s := sim.New(sim.Config{})
	defer s.Close()
	var out strings.Builder
	p := replyPrinter{sim: s, out: &out}
	send(t, s, "one")
	send(t, s, "two\nlines")
	if err := p.printNext(context.Background()); err != nil {
		t.Fatal(err)
	}
	send(t, s, "three")
	if err := p.printNext(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := "bot → testbot: one\nbot → testbot: two\n    lines\nbot → testbot: three\n"
	if out.String() != want {
		t.Errorf("printed %q; want %q", out.String(), want)
	}
	// flush prints what is there at once; printNext then goes on after it.
	send(t, s, "four")
	if err := p.flush(); err != nil {
		t.Fatal(err)
	}
	if err := p.flush(); err != nil { // nothing new: prints nothing, does not wait
		t.Fatal(err)
	}
	send(t, s, "five")
	if err := p.printNext(context.Background()); err != nil {
		t.Fatal(err)
	}
	want += "bot → testbot: four\nbot → testbot: five\n"
	if out.String() != want {
		t.Errorf("printed %q; want %q", out.String(), want)
	}
}

// A quoted reply is printed under the line it quotes, cut to its first line.
func TestReplyPrinterQuote(t *testing.T) {
	s := sim.New(sim.Config{})
	defer s.Close()
	var out strings.Builder
	p := replyPrinter{sim: s, out: &out}
	body, _ := json.Marshal(map[string]any{"number": s.Number(), "recipients": []string{sim.TestGroup().ID()}, "message": "Komendy",
		"quote_timestamp": 7, "quote_author": "+48500000001", "quote_message": "!pomoc\nproszę"})
	req := httptest.NewRequest(http.MethodPost, "/v2/send", strings.NewReader(string(body)))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		t.Fatalf("POST /v2/send: %d %s", rec.Code, rec.Body.String())
	}
	if err := p.printNext(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := "  ↪ replying to +48500000001: !pomoc…\nbot → testbot: Komendy\n"; out.String() != want {
		t.Errorf("printed %q; want %q", out.String(), want)
	}
}

// BenchmarkReplyPrinter prints one reply at a time after 10 and after 10,000
// earlier sends: the allocations per reply must not grow with the run.
//
//	go test -run '^$' -bench ReplyPrinter -benchmem ./cmd/signal-bot
func BenchmarkReplyPrinter(b *testing.B) {
	for _, before := range []int{10, 10_000} {
		b.Run("after_"+strconv.Itoa(before), func(b *testing.B) {
			s := sim.New(sim.Config{})
			defer s.Close()
			p := replyPrinter{sim: s, out: io.Discard}
			for range before {
				send(b, s, "Dostępne komendy: !pomoc, !ja, !cat, !kot")
			}
			ctx := context.Background()
			for p.next < before {
				if err := p.printNext(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				send(b, s, "Dostępne komendy: !pomoc, !ja, !cat, !kot")
				b.StartTimer()
				if err := p.printNext(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A quote's mentions show as names where their placeholders are: the bot's
// as "@bot", a sandbox person's by role and number; a placeholder without a
// mention stays as it is.
func TestQuoted(t *testing.T) {
	s := sim.New(sim.Config{})
	defer s.Close()
	x := sim.Sent{QuoteMessage: "😀 \uFFFC \uFFFC !pomoc \uFFFC", QuoteMentions: []sim.SentMention{
		{Start: 3, Length: 1, Author: sim.UUIDOf(s.Number())}, // 😀 is two UTF-16 code units
		{Start: 5, Length: 1, Author: memberNumber},
	}}
	if got, want := quoted(s, x), "😀 @bot @member "+memberNumber+" !pomoc \uFFFC"; got != want {
		t.Errorf("quoted = %q; want %q", got, want)
	}
}
