package config

import "reflect"

// Variables returns the name of every variable Load reads, in the order of
// Config's fields.
func Variables() []string {
	var out []string
	walk(reflect.TypeOf(Config{}), func(f reflect.StructField) {
		name, _ := parseTag(f.Tag.Get("env"))
		out = append(out, name)
	})
	return out
}
