package render

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// YAML renders the objects as one multi-document YAML stream in apply
// order, as `kubectl apply -f` reads it. The output is deterministic.
func (o Objects) YAML() ([]byte, error) {
	list := o.List()
	// Room for the documents the ConfigMaps hold and a few lines of
	// every object: the stream grows once, if at all.
	size := 2048 * len(list)
	for _, cm := range o.ConfigMaps {
		for _, s := range cm.Data {
			size += len(s) + len(s)/16
		}
	}
	out := make([]byte, 0, size)
	var t yamlTree
	for i, obj := range list {
		if i > 0 {
			out = append(out, "---\n"...)
		}
		var err error
		if out, err = t.appendObjectYAML(out, obj); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ApplyBody is obj's server-side apply request body: its JSON without
// null fields (creationTimestamp) and without status, which a client never
// owns.
func ApplyBody(obj Object) ([]byte, error) {
	v, err := applyValue(obj)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// applyValue is obj's apply body as a JSON value.
func applyValue(obj Object) (map[string]any, error) {
	// A ConfigMap's data (a whole native document) would come back from
	// the JSON round trip as it went in, valid UTF-8 being what JSON
	// keeps: it is put in as it is, the rest of the object going round.
	if cm, ok := obj.(*corev1.ConfigMap); ok && len(cm.Data) > 0 && validStrings(cm.Data) {
		rest := *cm
		rest.Data = nil
		v, err := applyValue(&rest)
		if err != nil {
			return nil, err
		}
		data := make(map[string]any, len(cm.Data))
		for k, s := range cm.Data {
			data[k] = s
		}
		v["data"] = data
		return v, nil
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	delete(v, "status")
	dropNulls(v)
	return v, nil
}

// validStrings reports whether every key and value of m is valid UTF-8.
func validStrings(m map[string]string) bool {
	for k, v := range m {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return false
		}
	}
	return true
}

// appendObjectYAML appends obj's YAML document to dst: its apply body as
// sigs.k8s.io/yaml.JSONToYAML writes it, by the writer of yamlemit.go
// when it covers every value, else by JSONToYAML itself: straight from
// obj's fields ([yamlTree.appendTyped]) when the typed writer reads all
// of them, else from the tree of obj's JSON text. t is reused from one
// object to the next.
func (t *yamlTree) appendObjectYAML(dst []byte, obj Object) ([]byte, error) {
	if y, read, written := t.appendTyped(dst, obj); read {
		if written {
			return y, nil
		}
		// A value the writer does not cover, whichever tree holds it.
		return appendSigsYAML(dst, obj)
	}
	t.nodes, t.open = t.nodes[:0], t.open[:0]
	if root, ok := t.readObject(obj); ok {
		if y, ok := appendYAML(dst, t, root); ok {
			return y, nil
		}
	}
	return appendSigsYAML(dst, obj)
}

// appendSigsYAML appends obj's YAML document as JSONToYAML writes it.
func appendSigsYAML(dst []byte, obj Object) ([]byte, error) {
	v, err := applyValue(obj)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	y, err := yaml.JSONToYAML(yamlSafeJSON(body))
	if err != nil {
		return nil, err
	}
	return append(dst, y...), nil
}

// readObject reads obj's apply body into t, as [applyValue] makes it: a
// ConfigMap's data (a whole native document) is taken as it is, valid
// UTF-8 being what the JSON round trip keeps, the rest of the object
// going through its JSON. ok is false when obj does not marshal or its
// body is no tree the writer reads.
func (t *yamlTree) readObject(obj Object) (yamlNode, bool) {
	cm, direct := obj.(*corev1.ConfigMap)
	direct = direct && len(cm.Data) > 0 && validStrings(cm.Data)
	if direct {
		rest := *cm
		rest.Data = nil
		obj = &rest
	}
	body, err := t.marshal(obj)
	if err != nil {
		return yamlNode{}, false
	}
	root, ok := t.readApplyBody(body)
	if !ok || !direct {
		return root, ok
	}
	data := make([]yamlNode, 0, len(cm.Data))
	for k, s := range cm.Data {
		data = append(data, yamlNode{kind: nodeString, key: k, text: s})
	}
	d, ok := t.object(data...)
	if !ok {
		return yamlNode{}, false
	}
	d.key = "data"
	members := make([]yamlNode, 0, root.n+1)
	members = append(append(members, t.members(root)...), d)
	return t.object(members...)
}

// FileName is the file name [Objects.WriteFiles] gives obj:
// NN-kind-name.yaml, where NN is obj's 1-based position in apply order
// (two digits), so a directory listing sorts in apply order and
// `kubectl apply -f DIR` applies the objects in that order.
func FileName(i int, obj Object) string {
	kind := strings.ToLower(obj.GetObjectKind().GroupVersionKind().Kind)
	return fmt.Sprintf("%02d-%s-%s.yaml", i+1, kind, obj.GetName())
}

// Each calls fn for every object in apply order with its [FileName] and
// its YAML document (the body of [Objects.YAML], without separators). It
// stops at and returns fn's first error.
func (o Objects) Each(fn func(name string, doc []byte) error) error {
	var t yamlTree
	for i, obj := range o.List() {
		y, err := t.appendObjectYAML(nil, obj)
		if err != nil {
			return err
		}
		if err := fn(FileName(i, obj), y); err != nil {
			return err
		}
	}
	return nil
}

// WriteFiles writes every object to its own file in dir (see [FileName]),
// creating dir when it is missing; files are written with mode 0o644 and
// an existing file of the same name is replaced. Rendered objects hold no
// secret values (credentials are Secret references), so the files are safe
// to commit. Files from an earlier render that no longer exist are left
// alone: write to an empty directory to get exactly the current set.
func (o Objects) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return o.Each(func(name string, doc []byte) error {
		return os.WriteFile(filepath.Join(dir, name), doc, 0o644)
	})
}

// yamlSafeJSON escapes, in the JSON text j, every character that a YAML
// reader does not take as itself inside a double-quoted scalar.
// sigs.k8s.io/yaml.JSONToYAML reads its JSON input with a YAML parser,
// which folds a raw NEL (U+0085) into a space and refuses DEL, the other
// C1 controls and the non-characters U+FFFE and U+FFFF; encoding/json
// writes all of them raw. As \uXXXX escapes they read back as
// themselves, and the YAML emitter then writes each in a form that reads
// back unchanged (\N, \x85, …). JSON's structure is ASCII, so only
// string contents change; a text holding none of these is returned as it
// is.
func yamlSafeJSON(j []byte) []byte {
	var out []byte
	done := 0 // j[:done] is in out
	for i := 0; i < len(j); {
		if j[i] < utf8.RuneSelf && j[i] != 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(j[i:])
		if yamlUnsafe(r) {
			if out == nil {
				out = make([]byte, 0, len(j)+32)
			}
			out = append(out, j[done:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			done = i + n
		}
		i += n
	}
	if out == nil {
		return j
	}
	return append(out, j[done:]...)
}

// yamlUnsafe reports whether a YAML reader changes or refuses r written
// raw inside a double-quoted scalar: DEL and the C1 controls (NEL among
// them, a YAML line break), the other YAML line breaks (U+2028, U+2029),
// the byte order mark, and the non-characters U+FFFE and U+FFFF (outside
// YAML's printable set).
func yamlUnsafe(r rune) bool {
	return r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff
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
