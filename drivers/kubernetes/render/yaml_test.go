package render_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

// yamlText draws strings a YAML writer can get wrong: every YAML line
// break (LF, CR, NEL, U+2028, U+2029), tabs, the byte order mark, C0 and
// C1 controls, DEL, non-characters, astral characters, indicators and
// document markers, in runs or alone, and arbitrary Unicode.
func yamlText(t *rapid.T, label string) string {
	pieces := []string{
		"\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029", "\t", "\ufeff", "\x00", "\x01", "\x1f", "\x7f",
		"\u0080", "\u009f", "\ufffe", "\uffff", "\U0001F600", "\u00a0", " ", "x", "é", ": ", "#", "- ", "---",
		"...", "'", "\"", "\\", "|", ">", "&a", "*a", "!t", "%", "@", "`", "{", "}", "[", "]", ",", "?", "~",
		"null", "true", "1e3", "0x1F", "yes",
	}
	var b strings.Builder
	for n := rapid.IntRange(0, 12).Draw(t, label+"Pieces"); n > 0; n-- {
		if rapid.Bool().Draw(t, label+"Any") {
			b.WriteString(rapid.StringN(0, 4, -1).Draw(t, label+"Unicode"))
			continue
		}
		b.WriteString(rapid.SampledFrom(pieces).Draw(t, label+"Piece"))
	}
	return b.String()
}

// fataler is what the helpers need of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// readBack splits a YAML stream as kubectl does (document separators,
// k8s.io/apimachinery's YAML reader) and reads each document with
// sigs.k8s.io/yaml, as JSON values.
func readBack(t fataler, stream []byte) []any {
	t.Helper()
	r := k8syaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	var out []any
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			t.Fatalf("reading a document: %v\n%s", err, doc)
		}
		var v any
		if err := json.Unmarshal(j, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
}

// wantValues are the objects' apply bodies as JSON values.
func wantValues(t fataler, objs render.Objects) []any {
	t.Helper()
	var out []any
	for _, o := range objs.List() {
		body, err := render.ApplyBody(o)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestYAMLReadsBack: DRV-5 — every object's YAML, read back as kubectl
// reads a stream, is the object: every string, key or value, comes back
// byte for byte, whatever it holds.
func TestYAMLReadsBack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data := map[string]string{}
		for n := rapid.IntRange(1, 4).Draw(t, "files"); n > 0; n-- {
			data[yamlText(t, "key")] = yamlText(t, "value")
		}
		cm := &corev1.ConfigMap{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "n",
				Labels:      map[string]string{"l": yamlText(t, "label")},
				Annotations: map[string]string{yamlText(t, "annotationKey"): yamlText(t, "annotation")}},
			Data: data,
		}
		sa := &corev1.ServiceAccount{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
			ObjectMeta: metav1.ObjectMeta{Name: "s", Annotations: map[string]string{"a": yamlText(t, "sa")}}}
		objs := render.Objects{ServiceAccounts: []*corev1.ServiceAccount{sa}, ConfigMaps: []*corev1.ConfigMap{cm}}
		stream, err := objs.YAML()
		if err != nil {
			t.Fatalf("YAML: %v", err)
		}
		if diff := cmp.Diff(wantValues(t, objs), readBack(t, stream)); diff != "" {
			t.Fatalf("read back differs (-rendered +read):\n%s\n%q", diff, stream)
		}
		var docs int
		if err := objs.Each(func(_ string, doc []byte) error {
			docs++
			return nil
		}); err != nil || docs != 2 {
			t.Fatalf("Each: %d documents, %v", docs, err)
		}
	})
}

// TestYAMLLongKeys: DRV-5 — a key of any length is written and reads
// back. go-yaml writes a key of more than 128 bytes as a complex key
// ("? "), which its reader reads at any length; JSONToYAML itself fails
// on a key of more than 1,024 characters, since it first reads the JSON
// text with that reader, where such a key is too long to be a simple one
// (a fuzzed label key found it).
func TestYAMLLongKeys(t *testing.T) {
	complexKeyLine := regexp.MustCompile(`(?m)^ *\? `)
	for _, n := range []int{64, 129, 1000, 1025, 6000} {
		for _, unit := range []string{"x", "é", "\u0085", "a b", "🙂"} {
			key := strings.Repeat(unit, n)
			cm := &corev1.ConfigMap{
				TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
				ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "n",
					Labels: map[string]string{key: "v", "l": key}},
				Data: map[string]string{key: key, "short": "s"},
			}
			objs := render.Objects{ConfigMaps: []*corev1.ConfigMap{cm}}
			stream, err := objs.YAML()
			if err != nil {
				t.Fatalf("%d × %q: %v", n, unit, err)
			}
			if diff := cmp.Diff(wantValues(t, objs), readBack(t, stream)); diff != "" {
				t.Fatalf("%d × %q: read back differs (-rendered +read):\n%s", n, unit, diff)
			}
			if len(key) > 128 && !complexKeyLine.Match(stream) {
				t.Fatalf("%d × %q: no complex key written", n, unit)
			}
		}
	}
}

// TestRenderedDocumentReadsBack: DRV-5 — a revision whose document holds
// such a string renders a ConfigMap whose YAML reads back to the very
// document the revision froze (issue 31: "x\u0085y" came back as "x y").
func TestRenderedDocumentReadsBack(t *testing.T) {
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"},
	})
	if err != nil {
		t.Fatal(err)
	}
	auth, err := admission.CreateHarnessAuth([]byte(
		`{"method":"api_key","source":{"kind":"secret","namespaceId":"team-a","id":"anthropic-key"}}`))
	if err != nil {
		t.Fatal(err)
	}
	check := func(t fataler, name string) {
		at := occkit.NewPath("channels", "slack", "name")
		d, err := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`).Set(at, name)
		if err != nil {
			t.Fatal(err)
		}
		rev, err := a.Admit(context.Background(), admission.Request{
			Agent:         admission.Agent{ID: "main", ConfigurationID: "cfg_1", HarnessAuth: auth},
			Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: d},
			Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
		})
		if err != nil {
			t.Fatalf("not admitted: %v", err)
		}
		objs, err := render.Render(rev, render.Options{Namespace: drivers.Namespace{ID: "team-a"}})
		if err != nil {
			t.Fatal(err)
		}
		stream, err := objs.YAML()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantValues(t, objs), readBack(t, stream)); diff != "" {
			t.Fatalf("read back differs (-rendered +read):\n%s", diff)
		}
		// The frozen document and the gateway's rendered one hold the
		// string itself.
		if got := rev.Document().Get(at).String(); got != name {
			t.Fatalf("the revision froze %q for %q", got, name)
		}
		found := false
		for _, cm := range objs.ConfigMaps {
			for _, text := range cm.Data {
				var v struct {
					Channels struct{ Slack struct{ Name *string } }
				}
				if json.Unmarshal([]byte(text), &v) == nil && v.Channels.Slack.Name != nil {
					found = true
					if *v.Channels.Slack.Name != name {
						t.Fatalf("the ConfigMap holds %q for %q", *v.Channels.Slack.Name, name)
					}
				}
			}
		}
		if !found {
			t.Fatal("no ConfigMap holds channels.slack.name")
		}
	}
	t.Run("NEL", func(t *testing.T) { check(t, "x\u0085y") })
	rapid.Check(t, func(t *rapid.T) { check(t, yamlText(t, "name")) })
}
