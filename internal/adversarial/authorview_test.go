package adversarial_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/canarydoc"
	"github.com/occkit/occkit/resolver"
)

// TestAuthorViewMasksCanaries (issue 31): a credential written where the
// credential policy strips it (URL user info, query and path, header
// values, credential-like keys at any depth, OpenClaw's sensitive paths,
// env variables, credential flags and authorizations in arrays, comments)
// in any encoding (JSON, JSON5 keys and quotes, \u escapes in keys and
// values, multi-line strings, an included file) never appears in any form
// of a refusal, whatever refuses: the loader (syntax, duplicate key,
// non-finite number, lone surrogate, depth, string length, missing
// variable, missing include), the schema, resolution, admission, or a
// placement of any path of the document. The forms are Error, %v, %s,
// %q, %+v, Snippet, the position's text and JSON, the aggregate's text
// and Explain.
func TestAuthorViewMasksCanaries(t *testing.T) {
	a, err := admission.New(admission.Options{
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"},
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
	})
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	var n atomic.Int64
	rapid.Check(t, func(t *rapid.T) {
		c := canarydoc.Draw(t)
		dir := filepath.Join(base, fmt.Sprint(n.Add(1)))
		for name, text := range c.Files {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		opts := compile.LoadOptions{Limits: compile.Limits{MaxStringBytes: c.MaxStringBytes}}
		if c.Lookup != nil {
			opts.Lookup = func(k string) (string, bool) { v, ok := c.Lookup[k]; return v, ok }
		}
		// The refusal drawn must point at the canary's line (or next to it:
		// a multi-line string or array), or the search proves nothing.
		hit := c.Refusal == "none"
		onCanaryLine := func(pos occkit.Position) bool {
			text := c.Files[filepath.Base(pos.File)]
			lines := strings.Split(text, "\n")
			for _, l := range []int{pos.Line - 1, pos.Line, pos.Line + 1} {
				if l >= 1 && l <= len(lines) && strings.Contains(lines[l-1], c.Canary) {
					return true
				}
			}
			return false
		}
		check := func(stage string, err error) {
			t.Helper()
			for _, e := range occkit.Errors(err) {
				hit = hit || e.Position.IsValid() && onCanaryLine(e.Position)
			}
			for _, out := range errorForms(err) {
				if strings.Contains(out, c.Canary) {
					t.Fatalf("%s refusal (%s, %s, %s) shows the canary:\n%s\n--- main.json5:\n%s", stage, c.Place, c.Encoding, c.Refusal, out, c.Files[canarydoc.Main])
				}
			}
		}
		defer func() {
			if !hit && !t.Failed() {
				t.Fatalf("no %s refusal on the canary's line (%s, %s):\n%s", c.Refusal, c.Place, c.Encoding, c.Files[canarydoc.Main])
			}
		}()
		doc, err := compile.LoadFile(filepath.Join(dir, canarydoc.Main), opts)
		check("load", err)
		if err != nil {
			return
		}
		// Every path of the document, and one past each, placed.
		forEachPath(gjson.ParseBytes(doc.Bytes()), occkit.Root(), func(p occkit.Path) {
			for _, q := range []occkit.Path{p, p.Key("missing")} {
				check("placement of "+q.String(), doc.Place(occkit.Invalid("DOC-5", q, "m")))
			}
		})
		check("schema", compile.Validate(doc))
		hit = true // placements of every path above pass through the line
		dec, err := resolver.Resolve(doc, resolver.Request{Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes})
		check("resolve", err)
		if err == nil {
			var b strings.Builder
			if err := dec.Explain(&b); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(b.String(), c.Canary) {
				t.Fatalf("Explain shows the canary:\n%s", b.String())
			}
		}
		_, err = a.Admit(context.Background(), admission.Request{
			Principal: "user:test",
			Agent: admission.Agent{ID: "a1", ConfigurationID: "cfg", ExecutionMode: occkit.ModeEmbedded,
				HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey, Source: secret}},
			Configuration: admission.StaticConfiguration{ID: "cfg", Generation: 1, Document: doc},
			Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s"},
		})
		check("admission", err)
	})
}

// errorForms is every way err and its members print.
func errorForms(err error) []string {
	if err == nil {
		return nil
	}
	out := []string{err.Error(), fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err)}
	for _, e := range occkit.Errors(err) {
		pos, _ := json.Marshal(e.Position)
		out = append(out, e.Error(), fmt.Sprintf("%v", e), fmt.Sprintf("%s", e), fmt.Sprintf("%q", e),
			fmt.Sprintf("%+v", e), e.Snippet(), e.Message(), e.Position.Text, e.Position.String(), string(pos))
	}
	return out
}

// forEachPath calls f with every path of v, v's own included.
func forEachPath(v gjson.Result, at occkit.Path, f func(occkit.Path)) {
	f(at)
	switch {
	case v.IsObject():
		v.ForEach(func(k, c gjson.Result) bool {
			forEachPath(c, at.Key(k.String()), f)
			return true
		})
	case v.IsArray():
		for i, c := range v.Array() {
			forEachPath(c, at.Index(i), f)
		}
	}
}
