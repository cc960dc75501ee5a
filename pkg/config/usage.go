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
	walk(reflect.TypeOf(Config{}), func(section string) { fmt.Fprintf(w, "%s:\n", section) }, func(f reflect.StructField) {
		name, def := parseTag(f.Tag.Get("env"))
		if def == "" {
			def = "(none)"
		}
		fmt.Fprintf(w, "  %-24s %s\n  %-24s default: %s\n", name, f.Tag.Get("help"), "", def)
	})
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Tracing: the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_TRACES_SAMPLER, …).")
}

// walk calls variable for every field of t that has an env tag, in order,
// and section before the fields of each named struct field without one. An
// embedded struct (a package's own Config inside a section) adds its fields
// to the section it is in.
func walk(t reflect.Type, section func(name string), variable func(f reflect.StructField)) {
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Tag.Get("env") != "":
			variable(f)
		case f.Type.Kind() == reflect.Struct && f.Anonymous:
			walk(f.Type, section, variable)
		case f.Type.Kind() == reflect.Struct:
			section(f.Name)
			walk(f.Type, section, variable)
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
