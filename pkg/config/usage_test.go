package config

import (
	"bytes"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// -h begins with the essentials, in their order, before any other setting;
// then every variable Load reads appears once, with its default.
func TestUsageBeginsWithEssentials(t *testing.T) {
	var b strings.Builder
	Usage(&b)
	_, body, ok := strings.Cut(b.String(), "\n"+EssentialsTitle+":\n")
	if !ok {
		t.Fatalf("-h has no %q heading:\n%s", EssentialsTitle, b.String())
	}
	lines := strings.Split(body, "\n")
	for i, name := range essentials() {
		if !strings.HasPrefix(lines[i], "  "+name+"=") {
			t.Errorf("-h essentials line %d = %q; want %s first", i+1, lines[i], name)
		}
	}
	names := settingNames(b.String())
	for _, v := range append(Variables(), "OTEL_EXPORTER_OTLP_ENDPOINT") {
		if n := slices.Index(names, v); n < 0 || slices.Index(names[n+1:], v) >= 0 {
			t.Errorf("-h lists %s %d times; want once", v, count(names, v))
		}
	}
	if !strings.Contains(b.String(), "\n  LIMIT=8 ") {
		t.Error("-h does not give LIMIT's default as LIMIT=8")
	}
}

// Every section has a human heading: each field of Config a title tag.
func TestSectionsHaveTitles(t *testing.T) {
	ct := reflect.TypeOf(Config{})
	for i := range ct.NumField() {
		if f := ct.Field(i); f.Tag.Get("title") == "" {
			t.Errorf("Config.%s has no title tag: give it the heading -h and docs/settings.md show", f.Name)
		}
	}
	for _, sec := range Sections() {
		if len(sec.Settings) == 0 {
			t.Errorf("section %q is empty", sec.Title)
		}
	}
}

// docs/settings.md is what SettingsMarkdown writes from the declarations.
func TestSettingsDoc(t *testing.T) {
	have, err := os.ReadFile("../../docs/settings.md")
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := SettingsMarkdown(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want.Bytes()) {
		t.Error("docs/settings.md differs from the settings' declarations; regenerate it: " +
			"go run ./cmd/signal-bot -settings-md > docs/settings.md")
	}
}

// The env example names its settings (set or commented out) in -h's order,
// the essentials first, ADMINS among them.
func TestEnvExampleOrder(t *testing.T) {
	b, err := os.ReadFile("../../deploy/signal-bot.env.example")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, sec := range Sections() {
		for _, s := range sec.Settings {
			order = append(order, s.Name)
		}
	}
	assigned := regexp.MustCompile(`(?m)^#?\s*([A-Z][A-Z0-9_]+)=`)
	var listed []string
	for _, m := range assigned.FindAllStringSubmatch(string(b), -1) {
		if slices.Contains(order, m[1]) && !slices.Contains(listed, m[1]) {
			listed = append(listed, m[1])
		}
	}
	for _, name := range essentials() {
		if !slices.Contains(listed, name) {
			t.Errorf("the env example has no %s line", name)
		}
	}
	for i := 1; i < len(listed); i++ {
		if slices.Index(order, listed[i-1]) > slices.Index(order, listed[i]) {
			t.Errorf("the env example has %s before %s; -h has them the other way round", listed[i-1], listed[i])
		}
	}
}

// settingNames are the names of -h's setting lines, in order.
func settingNames(usage string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^  ([A-Z][A-Z0-9_]+)=`).FindAllStringSubmatch(usage, -1) {
		out = append(out, m[1])
	}
	return out
}

func count(s []string, v string) (n int) {
	for _, x := range s {
		if x == v {
			n++
		}
	}
	return n
}
