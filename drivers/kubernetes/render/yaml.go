package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	goyaml "go.yaml.in/yaml/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// YAML renders the objects as one multi-document YAML stream in apply
// order, as `kubectl apply -f` reads it. The output is deterministic.
func (o Objects) YAML() ([]byte, error) {
	out := make([]byte, 0, o.yamlSize())
	// The tree is made for an object the typed writer does not read,
	// which no rendered object is: a render's YAML allocates its output
	// and nothing else.
	var tree *yamlTree
	n := 0
	err := o.inOrder(func(obj Object) error {
		if n > 0 {
			out = append(out, "---\n"...)
		}
		n++
		var err error
		out, err = appendObjectYAML(out, obj, &tree)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// yamlSize is room for the YAML of o, from the lengths of what its
// objects hold: a few lines of every object, a line per label,
// annotation, environment variable, argument, mount and volume (a few
// for the longer ones), and the documents its ConfigMaps hold (a
// character in 16 or so grows where a line folds). The stream grows
// once, if at all: TestYAMLSize holds it to the output of drawn renders,
// a little more than it and never less.
func (o Objects) yamlSize() int {
	size := 0
	meta := func(m *metav1.ObjectMeta) {
		size += 128 + 64*(len(m.Labels)+len(m.Annotations))
	}
	for _, x := range o.ServiceAccounts {
		meta(&x.ObjectMeta)
	}
	for _, x := range o.ConfigMaps {
		meta(&x.ObjectMeta)
		for _, s := range x.Data {
			size += 64 + len(s) + len(s)/16
		}
	}
	for _, x := range o.PersistentVolumeClaims {
		meta(&x.ObjectMeta)
		size += 64
	}
	for _, x := range o.Services {
		meta(&x.ObjectMeta)
		size += 64 + 128*len(x.Spec.Ports) + 64*len(x.Spec.Selector)
	}
	for _, x := range o.Deployments {
		meta(&x.ObjectMeta)
		meta(&x.Spec.Template.ObjectMeta)
		spec := &x.Spec.Template.Spec
		size += 640 + 96*len(spec.Volumes)
		for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
			for i := range cs {
				c := &cs[i]
				size += 640 + 112*len(c.Env) + 32*len(c.Args) + 80*len(c.VolumeMounts) + 64*len(c.Ports)
			}
		}
	}
	return size
}

// inOrder calls fn for every object of [Objects.List] in its order
// without making the list, and stops at fn's first error.
// TestInOrderIsList holds the two to the same order.
func (o Objects) inOrder(fn func(Object) error) error {
	for _, x := range o.ServiceAccounts {
		if err := fn(x); err != nil {
			return err
		}
	}
	for _, x := range o.ConfigMaps {
		if err := fn(x); err != nil {
			return err
		}
	}
	for _, x := range o.PersistentVolumeClaims {
		if err := fn(x); err != nil {
			return err
		}
	}
	for _, x := range o.Services {
		if err := fn(x); err != nil {
			return err
		}
	}
	for _, x := range o.Deployments {
		if err := fn(x); err != nil {
			return err
		}
	}
	return nil
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
// sigs.k8s.io/yaml.JSONToYAML writes it. The writer of yamlemit.go writes
// it when it covers every value (straight from obj's fields,
// [appendTyped], when the typed writer reads all of them, else from the
// tree of obj's JSON text); else go-yaml's encoder does, as JSONToYAML
// calls it (appendSigsYAML). *tree is the JSON tree, made the first time
// an object needs it and reused from one object to the next.
func appendObjectYAML(dst []byte, obj Object, tree **yamlTree) ([]byte, error) {
	if y, read, written := appendTyped(dst, obj); read {
		if written {
			return y, nil
		}
		// A value the writer does not cover, whichever tree holds it.
		return appendSigsYAML(dst, obj)
	}
	if *tree == nil {
		*tree = new(yamlTree)
	}
	t := *tree
	t.nodes, t.open = t.nodes[:0], t.open[:0]
	if root, ok := t.readObject(obj); ok {
		if y, ok := appendYAML(dst, t, root); ok {
			return y, nil
		}
	}
	return appendSigsYAML(dst, obj)
}

// appendSigsYAML appends obj's YAML document as JSONToYAML writes it:
// the apply body's JSON text decoded into the values go-yaml's decoder
// makes of it (strings, ints, uints, floats, booleans, nulls, lists and
// mappings: [yamlValue]), written by go-yaml's encoder, the one
// JSONToYAML calls. It leaves out JSONToYAML's first step, reading the
// JSON with go-yaml's YAML parser, which refuses a key of more than
// 1,024 characters (a simple key's limit; the encoder writes such a key
// as a complex one, "? ", which reads back) and reads DEL, the C1
// controls, U+FFFE and U+FFFF raw as errors and a raw NEL as a space.
// Where that parser reads the text, the two agree byte for byte
// (checkStream, TestYAMLWriterMatchesJSONToYAML).
func appendSigsYAML(dst []byte, obj Object) ([]byte, error) {
	v, err := applyValue(obj)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	y, err := goyaml.Marshal(yamlValue(tree))
	if err != nil {
		return nil, err
	}
	return append(dst, y...), nil
}

// yamlValue turns v, decoded by encoding/json with UseNumber, into what
// go-yaml v2's decoder makes of the same JSON text: a number becomes an
// int when it is one, else a uint64, else a float64, else (out of a
// float's range) the string it is written as, which is go-yaml's
// resolution of a plain scalar that starts with a digit or a sign (a
// JSON number is never a timestamp, and holds no '_' or base prefix).
func yamlValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = yamlValue(e)
		}
	case []any:
		for i, e := range x {
			x[i] = yamlValue(e)
		}
	case json.Number:
		s := string(x)
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return int(i)
		}
		if u, err := strconv.ParseUint(s, 0, 64); err == nil {
			return u
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		return s
	}
	return v
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
	var tree *yamlTree
	i := 0
	return o.inOrder(func(obj Object) error {
		y, err := appendObjectYAML(nil, obj, &tree)
		if err != nil {
			return err
		}
		i++
		return fn(FileName(i-1, obj), y)
	})
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
