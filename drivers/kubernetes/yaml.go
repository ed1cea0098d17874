package kubernetes

import (
	"bytes"
	"encoding/json"

	"sigs.k8s.io/yaml"
)

// YAML renders the objects as one multi-document YAML stream in apply
// order, as `kubectl apply -f` reads it. The output is deterministic.
func (o Objects) YAML() ([]byte, error) {
	var b bytes.Buffer
	for i, obj := range o.List() {
		if i > 0 {
			b.WriteString("---\n")
		}
		body, err := applyBody(obj)
		if err != nil {
			return nil, err
		}
		y, err := yaml.JSONToYAML(body)
		if err != nil {
			return nil, err
		}
		b.Write(y)
	}
	return b.Bytes(), nil
}

// applyBody is obj's server-side apply request body: its JSON without
// null fields (creationTimestamp) and without status, which a client never
// owns.
func applyBody(obj Object) ([]byte, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	delete(v, "status")
	return json.Marshal(dropNulls(v))
}

func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			x[k] = dropNulls(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dropNulls(e)
		}
	}
	return v
}
