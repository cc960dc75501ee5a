package config

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
)

// Setting is one variable as -h and docs/settings.md show it.
type Setting struct {
	Name, Default, Help string
}

// Section is a heading and its settings.
type Section struct {
	Title    string
	Settings []Setting
}

// essentials are the settings a first deployment needs, in the order a
// reader meets them; -h and docs/settings.md start with them.
func essentials() []string {
	return []string{"SIGNAL_API_URL", "SIGNAL_NUMBER", "SIGNAL_GROUPS", "ADMINS", "RECEIVE_MODE", "WEBHOOK_TOKEN",
		"OTEL_EXPORTER_OTLP_ENDPOINT", "REPLY_LANG", "STATE_PATH"}
}

// EssentialsTitle is the heading of the first section.
const EssentialsTitle = "Essentials"

// tracingTitle is the section the OpenTelemetry variables join.
const tracingTitle = "Logging and tracing"

// otelSettings are the OpenTelemetry variables the bot reads through the
// SDK (pkg/telemetry), not through Config.
func otelSettings() []Setting {
	return []Setting{
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "", "where spans go over OTLP/HTTP (a local Jaeger: http://127.0.0.1:4318); unset: spans are not exported, the timing blocks still work"},
		{"OTEL_SERVICE_NAME", "signal-bot", "the service.name of the bot's spans"},
		{"OTEL_TRACES_SAMPLER", "parentbased_always_on", "which traces are exported: always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio; every span is still recorded for the timing block"},
		{"OTEL_TRACES_SAMPLER_ARG", "1", "the ratio of the traceidratio samplers, 0 to 1"},
	}
}

// Sections are every setting under its heading: the essentials first, then
// each concern (Config's fields, by their title tag; fields of one title
// share it), each setting once. Usage and SettingsMarkdown print them.
func Sections() []Section {
	all := map[string]Setting{}
	var out []Section
	add := func(title string, s Setting) {
		all[s.Name] = s
		if slices.Contains(essentials(), s.Name) {
			return
		}
		i := slices.IndexFunc(out, func(sec Section) bool { return sec.Title == title })
		if i < 0 {
			out, i = append(out, Section{Title: title}), len(out)
		}
		out[i].Settings = append(out[i].Settings, s)
	}
	t := reflect.TypeOf(Config{})
	for i := range t.NumField() {
		f := t.Field(i)
		title := f.Tag.Get("title")
		if title == "" {
			title = f.Name
		}
		walk(f.Type, func(v reflect.StructField) {
			name, def := parseTag(v.Tag.Get("env"))
			add(title, Setting{Name: name, Default: def, Help: v.Tag.Get("help")})
		})
	}
	for _, s := range otelSettings() {
		add(tracingTitle, s)
	}
	first := Section{Title: EssentialsTitle}
	for _, name := range essentials() {
		first.Settings = append(first.Settings, all[name])
	}
	return append([]Section{first}, out...)
}

// Usage writes -h: every setting, one a line with its default, the
// essentials first, then by concern; read from the declarations (the struct
// tags) so it cannot drift from what Load reads.
func Usage(w io.Writer) {
	fmt.Fprint(w, `signal-bot answers !commands in Signal chats. It is configured by environment
variables, shown here as NAME=default; unset ones keep the default. With
neither SIGNAL_API_URL nor SIGNAL_NUMBER set it runs the sandbox.
docs/settings.md is this list as a page (go run ./cmd/signal-bot -settings-md).
`)
	for _, sec := range Sections() {
		fmt.Fprintf(w, "\n%s:\n", sec.Title)
		for _, s := range sec.Settings {
			fmt.Fprintf(w, "  %-34s %s\n", s.Name+"="+s.Default, s.Help)
		}
	}
}

// SettingsMarkdown writes docs/settings.md: Sections as tables.
func SettingsMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Settings\n\n" +
		"Every setting is an environment variable; one that is unset keeps its default. This page is\n" +
		"generated from the declarations `-h` reads (the struct tags in `pkg/config` and the packages it\n" +
		"gathers), with `go run ./cmd/signal-bot -settings-md > docs/settings.md`; `TestSettingsDoc` fails\n" +
		"when it drifts. The essentials come first, then each concern.\n")
	cell := strings.NewReplacer("|", `\|`, "\n", " ")
	for _, sec := range Sections() {
		fmt.Fprintf(&b, "\n## %s\n\n| setting | default | meaning |\n|---|---|---|\n", sec.Title)
		for _, s := range sec.Settings {
			def := ""
			if s.Default != "" {
				def = "`" + s.Default + "`"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", s.Name, cell.Replace(def), cell.Replace(s.Help))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// walk calls variable for every field of t, at any depth, that has an env
// tag, in order.
func walk(t reflect.Type, variable func(f reflect.StructField)) {
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Tag.Get("env") != "":
			variable(f)
		case f.Type.Kind() == reflect.Struct:
			walk(f.Type, variable)
		}
	}
}

func parseTag(tag string) (name, def string) {
	name, opts, _ := strings.Cut(tag, ",")
	if _, d, ok := strings.Cut(opts, "default="); ok {
		def = d
	}
	return strings.TrimSpace(name), def
}

// nameVariable rewrites envconfig's "Section: Field: problem" (with one more
// "Config: " per embedded struct) into "VARIABLE: problem", so a bad setting
// names what the operator typed.
func nameVariable(msg string) string {
	t, rest := reflect.TypeOf(Config{}), msg
	for {
		field, after, ok := strings.Cut(rest, ": ")
		if !ok {
			return msg
		}
		f, ok := t.FieldByName(field)
		if !ok {
			return msg
		}
		if name, _ := parseTag(f.Tag.Get("env")); name != "" {
			return name + ": " + after
		}
		if f.Type.Kind() != reflect.Struct {
			return msg
		}
		t, rest = f.Type, after
	}
}
