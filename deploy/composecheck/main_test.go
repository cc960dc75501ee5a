package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// good is a small model in the validator's JSON shape that passes.
const good = `{"services":{
 "api":{"image":"bbernhard/signal-cli-rest-api:0.100","restart":"unless-stopped",
  "ports":[{"host_ip":"127.0.0.1","published":"9922","target":8080}],
  "healthcheck":{"test":["CMD","curl","-f","http://127.0.0.1:8080/v1/health"]}},
 "bot":{"build":{"context":"."},"image":"signal-bot:local","restart":"unless-stopped",
  "environment":{"SIGNAL_API_URL":"http://api:8080","OTEL_SERVICE_NAME":"signal-bot","CAT_API_KEY":null},
  "depends_on":{"api":{"condition":"service_healthy","required":true}}}}}`

func TestCheck(t *testing.T) {
	known := map[string]bool{"SIGNAL_API_URL": true, "CAT_API_KEY": true}
	tests := []struct {
		name  string
		edit  func(m *model)
		wants []string // substrings of the problems, in order
	}{
		{"good", func(*model) {}, nil},
		{"undefined dependency", func(m *model) {
			m.Services["bot"].DependsOn["jaeger"] = dependency{Condition: "service_started"}
		}, []string{`bot: depends_on names "jaeger", which is not a service`}},
		{"self dependency", func(m *model) {
			m.Services["bot"].DependsOn["bot"] = dependency{}
		}, []string{"bot: depends_on names itself"}},
		{"healthy without healthcheck", func(m *model) {
			api := m.Services["api"]
			api.Healthcheck = nil
			m.Services["api"] = api
		}, []string{"bot: waits for api to be healthy, but api has no healthcheck"}},
		{"port on every interface", func(m *model) {
			m.Services["api"].Ports[0].HostIP = ""
		}, []string{`api: port 9922:8080 is published on "", not on loopback`}},
		{"latest", func(m *model) {
			api := m.Services["api"]
			api.Image = "bbernhard/signal-cli-rest-api:latest"
			m.Services["api"] = api
		}, []string{"api: image \"bbernhard/signal-cli-rest-api:latest\" is not pinned"}},
		{"no tag", func(m *model) {
			api := m.Services["api"]
			api.Image = "localhost:5000/jaeger"
			m.Services["api"] = api
		}, []string{"api: image \"localhost:5000/jaeger\" is not pinned"}},
		{"no restart", func(m *model) {
			bot := m.Services["bot"]
			bot.Restart = ""
			m.Services["bot"] = bot
		}, []string{"bot: no restart policy"}},
		{"unknown variable", func(m *model) {
			v := "1"
			m.Services["bot"].Environment["SIGNAL_API"] = &v
		}, []string{"bot: environment sets SIGNAL_API, which signal-bot does not read"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m model
			if err := json.Unmarshal([]byte(good), &m); err != nil {
				t.Fatal(err)
			}
			tt.edit(&m)
			got := check(m, known, "/_webhook")
			if len(got) != len(tt.wants) {
				t.Fatalf("check = %q; want %d problems like %q", got, len(tt.wants), tt.wants)
			}
			for i, w := range tt.wants {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q; want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestPinned(t *testing.T) {
	tests := []struct {
		image string
		want  bool
	}{
		{"jaegertracing/jaeger:2.13.0", true},
		{"bbernhard/signal-cli-rest-api:0.100", true},
		{"bbernhard/signal-cli-rest-api", false},
		{"bbernhard/signal-cli-rest-api:latest", false},
		{"registry.example:5000/x", false},
		{"registry.example:5000/x:1.2", true},
		{"x@sha256:abc", true},
	}
	for _, tt := range tests {
		if got := pinned(tt.image); got != tt.want {
			t.Errorf("pinned(%q) = %v; want %v", tt.image, got, tt.want)
		}
	}
}

func TestScanNames(t *testing.T) {
	got, err := scanNames(strings.NewReader("A\n\n B \n"))
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"A", "B"}; !slices.Equal(keys, want) {
		t.Errorf("scanNames = %q; want %q", keys, want)
	}
	if _, err := scanNames(strings.NewReader("\n")); err == nil {
		t.Error("scanNames of nothing: no error; want one")
	}
}
