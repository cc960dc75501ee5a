package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    options // compared field by field below
		wantErr string
	}{
		{name: "defaults", args: []string{"testbot"},
			want: options{group: "testbot", text: "!pomoc", command: "pomoc", times: 20, budgetMS: 100, url: "http://127.0.0.1:9923"}},
		{name: "group after flags", args: []string{"--text", "!ja", "--times", "50", "testbot"},
			want: options{group: "testbot", text: "!ja", command: "ja", times: 50, budgetMS: 100, url: "http://127.0.0.1:9923"}},
		{name: "group between flags", args: []string{"--text=!kot x", "testbot", "-times=3", "--json"},
			want: options{group: "testbot", text: "!kot x", command: "kot", times: 3, budgetMS: 100, url: "http://127.0.0.1:9923", json: true}},
		{name: "environment", args: []string{"testbot"},
			env:  map[string]string{"OWN_BUDGET_MS": "50", "HTTP_ADDR": "0.0.0.0:8000", "SELFTEST_TOKEN": "s3cret"},
			want: options{group: "testbot", text: "!pomoc", command: "pomoc", times: 20, budgetMS: 50, url: "http://127.0.0.1:8000", token: "s3cret"}},
		{name: "flag beats environment", args: []string{"testbot", "--budget", "0.000001", "--url", "http://bot:1/"},
			env:  map[string]string{"OWN_BUDGET_MS": "50"},
			want: options{group: "testbot", text: "!pomoc", command: "pomoc", times: 20, budgetMS: 0.000001, url: "http://bot:1"}},
		{name: "budget as a duration", args: []string{"testbot", "--budget", "2s"},
			want: options{group: "testbot", text: "!pomoc", command: "pomoc", times: 20, budgetMS: 2000, url: "http://127.0.0.1:9923"}},
		{name: "open loop", args: []string{"testbot", "--rate", "200", "--duration", "30s"},
			want: options{group: "testbot", text: "!pomoc", command: "pomoc", times: 20, rate: 200, duration: 30 * time.Second, budgetMS: 100, url: "http://127.0.0.1:9923"}},
		{name: "pace off", args: []string{"testbot", "--pace", "off"},
			want: options{group: "testbot", text: "!pomoc", command: "pomoc", times: 20, budgetMS: 100, url: "http://127.0.0.1:9923", pace: paceOff}},
		{name: "bad pace", args: []string{"testbot", "--pace", "fast"}, wantErr: "--pace"},
		{name: "no group", args: nil, wantErr: "test group"},
		{name: "two groups", args: []string{"testbot", "other"}, wantErr: "got 2"},
		{name: "not a command", args: []string{"testbot", "--text", "pomoc"}, wantErr: "--text"},
		{name: "zero times", args: []string{"testbot", "--times", "0"}, wantErr: "--times"},
		{name: "rate without duration", args: []string{"testbot", "--rate", "5"}, wantErr: "go together"},
		{name: "times in the open loop", args: []string{"testbot", "--rate", "5", "--duration", "1s", "--times", "3"}, wantErr: "closed loop"},
		{name: "bad budget", args: []string{"testbot", "--budget", "soon"}, wantErr: "budget"},
		{name: "too many senders", args: []string{"testbot", "--senders", "65"}, wantErr: "--senders"},
		{name: "no senders", args: []string{"testbot", "--senders", "0"}, wantErr: "--senders"},
		{name: "negative budget", args: []string{"testbot", "--budget", "-1"}, wantErr: "budget"},
		{name: "bad environment budget", args: []string{"testbot"}, env: map[string]string{"OWN_BUDGET_MS": "x"}, wantErr: "budget"},
		{name: "unknown flag", args: []string{"testbot", "--nope"}, wantErr: "nope"},
		{name: "url without scheme", args: []string{"testbot", "--url", "127.0.0.1:9923"}, wantErr: "--url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseArgs(tt.args, mapEnv(tt.env), io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parseArgs(%q) error = %v; want one about %q", tt.args, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseArgs(%q) error = %v", tt.args, err)
			}
			w := tt.want
			w.inflight, w.timeout, w.senders = got.inflight, got.timeout, got.senders // defaults not under test here
			if w.pace == "" {
				w.pace = paceOn
			}
			if got != w {
				t.Errorf("parseArgs(%q) = %+v; want %+v", tt.args, got, w)
			}
		})
	}
}

func TestAddrURL(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"", "http://127.0.0.1:9923"},
		{"127.0.0.1:9923", "http://127.0.0.1:9923"},
		{":9000", "http://127.0.0.1:9000"},
		{"0.0.0.0:9000", "http://127.0.0.1:9000"},
		{"[::]:9000", "http://[::1]:9000"},
		{"bot.internal:80", "http://bot.internal:80"},
	}
	for _, tt := range tests {
		if got := addrURL(tt.addr); got != tt.want {
			t.Errorf("addrURL(%q) = %q; want %q", tt.addr, got, tt.want)
		}
	}
}

func TestPlanned(t *testing.T) {
	tests := []struct {
		o    options
		want int
	}{
		{options{times: 20}, 20},
		{options{rate: 200, duration: 30 * time.Second}, 6000},
		{options{rate: 3, duration: 500 * time.Millisecond}, 2},
		{options{rate: 0.1, duration: time.Second}, 1},
	}
	for _, tt := range tests {
		if got := tt.o.planned(); got != tt.want {
			t.Errorf("%+v.planned() = %d; want %d", tt.o, got, tt.want)
		}
	}
}

// mapEnv is a getenv over m.
func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}
