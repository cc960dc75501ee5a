package main

import (
	"encoding/json"
	"strings"
)

// environment is a service's variables. The validator writes them as a
// mapping, or as a list of NAME=value when an override file adds some.
type environment map[string]*string

func (e *environment) UnmarshalJSON(b []byte) error {
	var m map[string]*string
	if err := json.Unmarshal(b, &m); err == nil {
		*e = m
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	*e = make(environment, len(list))
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			(*e)[k] = nil
			continue
		}
		(*e)[k] = &v
	}
	return nil
}
