package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// environment is a service's environment in either of the model's forms: a
// map, or a list of KEY=value (what the validator keeps when it merges files
// without interpolating). A name without a value maps to nil.
type environment map[string]*string

func (e *environment) UnmarshalJSON(b []byte) error {
	var m map[string]*string
	if err := json.Unmarshal(b, &m); err == nil {
		*e = m
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("environment: neither a map nor a list: %s", b)
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

// get returns the value of name, "" if unset or without a value.
func (e environment) get(name string) string {
	if v := e[name]; v != nil {
		return *v
	}
	return ""
}

// extraHosts is a service's extra_hosts, host name → addresses, from either
// of the model's forms: a map, or a list of "host:address" or "host=address".
type extraHosts map[string][]string

func (h *extraHosts) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err == nil {
		*h = make(extraHosts, len(m))
		for host, raw := range m {
			var addrs []string
			if json.Unmarshal(raw, &addrs) != nil {
				var one string
				if err := json.Unmarshal(raw, &one); err != nil {
					return fmt.Errorf("extra_hosts %s: %s", host, raw)
				}
				addrs = []string{one}
			}
			(*h)[host] = addrs
		}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("extra_hosts: neither a map nor a list: %s", b)
	}
	*h = make(extraHosts, len(list))
	for _, entry := range list {
		i := strings.IndexAny(entry, "=:")
		if i < 0 {
			return fmt.Errorf("extra_hosts: %q has no address", entry)
		}
		(*h)[entry[:i]] = append((*h)[entry[:i]], entry[i+1:])
	}
	return nil
}
