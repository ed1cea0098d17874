package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/resolver"
)

// A Case is one entry of a case file in occkit's conformance format:
// an op, its input and the expected result or error.
type Case struct {
	File, Op, Name, Rule string
	Input, Expect        gjson.Result
}

// LoadCases reads every *.json file of dir (each a JSON array of cases),
// in name order.
func LoadCases(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no case files in %s", dir)
	}
	sort.Strings(files)
	var cases []Case
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if !gjson.ValidBytes(b) || !gjson.ParseBytes(b).IsArray() {
			return nil, fmt.Errorf("%s is not a JSON array of cases", f)
		}
		for i, c := range gjson.ParseBytes(b).Array() {
			name := c.Get("name").String()
			if name == "" {
				name = fmt.Sprintf("case %d", i)
			}
			cases = append(cases, Case{
				File: filepath.Base(f), Op: c.Get("op").String(), Name: name, Rule: c.Get("rule").String(),
				Input: c.Get("input"), Expect: c.Get("expect"),
			})
		}
	}
	return cases, nil
}

// result is what an op returns: plain JSON values by field, and the
// resulting document (for "paths") under documentKey.
type result map[string]any

const documentKey = "document"

// Run executes c against the library and returns "" when the expectation
// holds, else what differs.
func Run(c Case) string {
	res, err := execute(c.Op, c.Input)
	if want := c.Expect.Get("error"); want.Exists() {
		return checkError(want, err)
	}
	if err != nil {
		return "unexpected error: " + err.Error()
	}
	var diffs []string
	c.Expect.ForEach(func(k, want gjson.Result) bool {
		if d := checkField(k.String(), want, res); d != "" {
			diffs = append(diffs, k.String()+": "+d)
		}
		return true
	})
	return strings.Join(diffs, "\n")
}

// execute maps each op this team uses to one call of occkit's public API.
// All policy lives in the library; this is only an adapter.
func execute(op string, in gjson.Result) (result, error) {
	switch op {
	case "compile.load":
		doc, err := compile.Load([]byte(in.Get("text").String()), compile.LoadOptions{})
		if err != nil {
			return nil, err
		}
		return result{documentKey: doc, "configuration": json.RawMessage(doc.Bytes())}, nil

	case "compile.repair":
		doc, err := document(in)
		if err != nil {
			return nil, err
		}
		out, changes, err := compile.Repair(doc)
		if err != nil {
			return nil, err
		}
		return result{documentKey: out, "configuration": json.RawMessage(out.Bytes()),
			"changes": len(changes), "unchanged": len(changes) == 0 && out.Equal(doc)}, nil

	case "harness.resolve":
		doc, err := document(in)
		if err != nil {
			return nil, err
		}
		d, err := resolver.Resolve(doc, resolver.Request{
			Mode:         occkit.Mode(in.Get("executionMode").String()),
			Compute:      occkit.Compute(in.Get("compute").String()),
			Installation: installation(in.Get("installation")),
		})
		if err != nil {
			return nil, err
		}
		res := result{"harness": string(d.Harness), "mode": string(d.Mode), "fallbacks": d.Fallbacks}
		if d.Primary != "" {
			res["primary"] = d.Primary
		}
		return res, nil

	case "roster.check":
		doc, err := document(in)
		if err != nil {
			return nil, err
		}
		err = resolver.CheckRoster(doc, resolver.RosterRequest{
			Stage:   resolver.Stage(in.Get("stage").String()),
			Compute: occkit.Compute(in.Get("compute").String()),
			Harness: occkit.Harness(in.Get("harness").String()),
			Mode:    occkit.Mode(in.Get("executionMode").String()),
		})
		if err != nil {
			return nil, err
		}
		return result{"accept": true}, nil

	case "auth.validate":
		b, err := admission.ParseBinding([]byte(in.Get("binding").Raw), admission.BindingPath())
		if err != nil {
			return nil, err
		}
		mode := occkit.Mode(in.Get("executionMode").String())
		if mode == "" {
			mode = occkit.ModeEmbedded
		}
		p, err := admission.ValidateHarnessAuth(drivers.AuthFacts{
			Compute:             occkit.Compute(in.Get("compute").String()),
			Harness:             occkit.Harness(in.Get("harness").String()),
			Mode:                mode,
			Binding:             b,
			CredentialGateway:   in.Get("credentialGateway").Bool(),
			Sandbox:             sandbox(in.Get("sandbox")),
			NativeWorkerSupport: occkit.NativeWorkerSupport(in.Get("nativeWorkerSupport").String()),
			Model:               in.Get("model").String(),
		})
		if err != nil {
			return nil, err
		}
		return result{"accept": true, "snapshot": json.RawMessage(b.JSON()), "env": map[string][]string{
			"gateway": nonNil(p.Names(occkit.ProcessGateway)),
			"harness": nonNil(p.Names(occkit.ProcessHarness)),
		}}, nil
	}
	return nil, fmt.Errorf("op %q is not supported by this runner", op)
}

// document is input.configuration; absent is the empty Document.
func document(in gjson.Result) (occkit.Document, error) {
	v := in.Get("configuration")
	if !v.Exists() {
		return occkit.Document{}, nil
	}
	return occkit.ParseDocument([]byte(v.Raw))
}

// installation reads {nativeWorkerSupport, sandboxDriver}.
func installation(v gjson.Result) occkit.Installation {
	return occkit.Installation{
		NativeWorkerSupport: occkit.NativeWorkerSupport(v.Get("nativeWorkerSupport").String()),
		Sandbox:             sandbox(v.Get("sandboxDriver")),
	}
}

// sandbox reads {facets, provisionHarness}; anything else is no
// SandboxDriver.
func sandbox(v gjson.Result) *occkit.SandboxFacts {
	if !v.IsObject() {
		return nil
	}
	s := &occkit.SandboxFacts{ProvisionHarness: v.Get("provisionHarness").Bool()}
	for _, f := range v.Get("facets").Array() {
		s.Facets = append(s.Facets, occkit.Facet(f.String()))
	}
	return s
}

// checkError matches an expected error against every structured error in
// err: one of them must have the status, code, path and mentions; none may
// contain a neverMentions string.
func checkError(want gjson.Result, err error) string {
	if err == nil {
		return "expected error " + want.Raw + ", got success"
	}
	for _, s := range want.Get("neverMentions").Array() {
		if strings.Contains(err.Error(), s.String()) {
			return fmt.Sprintf("error mentions %q", s.String())
		}
	}
	var misses []string
	for _, e := range occkit.Errors(err) {
		var m []string
		if s := want.Get("status"); s.Exists() && int(s.Int()) != e.HTTPStatus() {
			m = append(m, fmt.Sprintf("status %d, want %d", e.HTTPStatus(), s.Int()))
		}
		if c := want.Get("code"); c.Exists() && c.String() != string(e.Code) {
			m = append(m, fmt.Sprintf("code %s, want %s", e.Code, c.String()))
		}
		if p := want.Get("path"); p.Exists() && p.String() != e.Path.String() {
			m = append(m, fmt.Sprintf("path %q, want %q", e.Path.String(), p.String()))
		}
		for _, s := range want.Get("mentions").Array() {
			if !strings.Contains(e.Error(), s.String()) {
				m = append(m, fmt.Sprintf("message lacks %q", s.String()))
			}
		}
		if len(m) == 0 {
			return ""
		}
		misses = append(misses, e.Error()+" ("+strings.Join(m, ", ")+")")
	}
	return "no error matches " + want.Raw + ":\n  " + strings.Join(misses, "\n  ")
}

// checkField compares one expected success field. "paths" reads dot paths
// inside the resulting document; "env" compares sets of names; null means
// absent; everything else is JSON equality (key order ignored).
func checkField(key string, want gjson.Result, res result) string {
	switch key {
	case "paths":
		doc, ok := res[documentKey].(occkit.Document)
		if !ok {
			return "op returned no document"
		}
		var diffs []string
		want.ForEach(func(k, v gjson.Result) bool {
			p, err := occkit.ParsePath(k.String())
			if err != nil {
				diffs = append(diffs, err.Error())
				return true
			}
			got := doc.Get(p)
			switch {
			case v.Type == gjson.Null && got.Exists() && got.Type != gjson.Null:
				diffs = append(diffs, fmt.Sprintf("%s: want absent, got %s", k, got.Raw))
			case v.Type != gjson.Null && !got.Exists():
				diffs = append(diffs, fmt.Sprintf("%s: absent, want %s", k, v.Raw))
			case v.Type != gjson.Null:
				if d := cmp.Diff(v.Value(), got.Value()); d != "" {
					diffs = append(diffs, fmt.Sprintf("%s (-want +got):\n%s", k, d))
				}
			}
			return true
		})
		return strings.Join(diffs, "\n")
	case "env":
		got, _ := res["env"].(map[string][]string)
		var diffs []string
		want.ForEach(func(proc, names gjson.Result) bool {
			var w []string
			for _, n := range names.Array() {
				w = append(w, n.String())
			}
			sort.Strings(w)
			if d := cmp.Diff(nonNil(w), nonNil(got[proc.String()])); d != "" {
				diffs = append(diffs, fmt.Sprintf("%s (-want +got):\n%s", proc, d))
			}
			return true
		})
		return strings.Join(diffs, "\n")
	}
	got, present := res[key]
	if want.Type == gjson.Null {
		if present && got != nil {
			return fmt.Sprintf("want absent, got %v", got)
		}
		return ""
	}
	if !present {
		return "missing from result"
	}
	return cmp.Diff(want.Value(), asJSON(got))
}

// asJSON turns a Go value into the value gjson would give for its JSON
// encoding, so that both sides of a comparison have the same types.
func asJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<%T: %v>", v, err)
	}
	return gjson.ParseBytes(b).Value()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
