package config

import "reflect"

// Variables returns the name of every variable Load reads, in the order
// Usage lists them.
func Variables() []string {
	var out []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type)
				continue
			}
			name, _ := parseTag(f.Tag.Get("env"))
			out = append(out, name)
		}
	}
	walk(reflect.TypeOf(Config{}))
	return out
}
