package config

import (
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Usage writes every variable with its default and meaning, read from the
// struct tags so it cannot drift from what Load reads.
func Usage(w io.Writer) {
	fmt.Fprintln(w, "signal-bot answers !commands in Signal chats. Configuration is by environment variable:")
	fmt.Fprintln(w)
	usage(w, reflect.TypeOf(Config{}))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Tracing: the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_TRACES_SAMPLER, …).")
}

func usage(w io.Writer, t reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type.Kind() == reflect.Struct {
			fmt.Fprintf(w, "%s:\n", f.Name)
			usage(w, f.Type)
			continue
		}
		name, def := parseTag(f.Tag.Get("env"))
		if def == "" {
			def = "(none)"
		}
		fmt.Fprintf(w, "  %-24s %s\n  %-24s default: %s\n", name, f.Tag.Get("help"), "", def)
	}
}

func parseTag(tag string) (name, def string) {
	name, opts, _ := strings.Cut(tag, ",")
	if _, d, ok := strings.Cut(opts, "default="); ok {
		def = d
	}
	return strings.TrimSpace(name), def
}

// nameVariable rewrites envconfig's "Section: Field: problem" into
// "VARIABLE: problem", so a bad setting names what the operator typed.
func nameVariable(msg string) string {
	section, rest, ok := strings.Cut(msg, ": ")
	if !ok {
		return msg
	}
	field, problem, ok := strings.Cut(rest, ": ")
	if !ok {
		return msg
	}
	st, ok := reflect.TypeOf(Config{}).FieldByName(section)
	if !ok || st.Type.Kind() != reflect.Struct {
		return msg
	}
	f, ok := st.Type.FieldByName(field)
	if !ok {
		return msg
	}
	name, _ := parseTag(f.Tag.Get("env"))
	return name + ": " + problem
}
