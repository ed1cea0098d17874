// Package conformance runs the occkit conformance cases (the format of
// shared/conformance/FORMAT.md) against the library.
//
// Each op is a function from the case input to a result map; the runner
// compares that map with the case's expectation. Values in the result map are
// plain JSON values, an occkit.Document under the key "document" (for the
// "paths" expectation), or a [Check] for keys whose comparison is not plain
// equality (environment sets, ordered argument subsequences, ...).
package conformance

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
)

// Case is one conformance case.
type Case struct {
	File   string
	Op     string
	Name   string
	Rule   string
	Input  gjson.Result
	Expect gjson.Result
}

// Result is what an op returns on success.
type Result map[string]any

// Check compares a result field with its expectation and returns a
// human-readable difference, or "" when it holds.
type Check func(expect gjson.Result) string

// DocumentKey is the result key holding the document that "paths" reads.
const DocumentKey = "document"

type opFunc func(in gjson.Result) (Result, error)

// Load reads every *.json case file of dir, in name order.
func Load(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("conformance: no case files in %s", dir)
	}
	sort.Strings(files)
	var out []Case
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if !gjson.ValidBytes(b) || !gjson.ParseBytes(b).IsArray() {
			return nil, fmt.Errorf("conformance: %s is not a JSON array of cases", f)
		}
		for i, c := range gjson.ParseBytes(b).Array() {
			name := c.Get("name").String()
			if name == "" {
				name = fmt.Sprintf("case %d", i)
			}
			out = append(out, Case{
				File: filepath.Base(f), Op: c.Get("op").String(), Name: name,
				Rule: c.Get("rule").String(), Input: c.Get("input"), Expect: c.Get("expect"),
			})
		}
	}
	return out, nil
}

// Run executes c and returns "" when it passes, else an explanation.
func Run(c Case) (failure string) {
	defer func() {
		if r := recover(); r != nil {
			failure = fmt.Sprintf("op panicked: %v", r)
		}
	}()
	op, ok := opTable()[c.Op]
	if !ok {
		return fmt.Sprintf("unknown op %q", c.Op)
	}
	in := c.Input
	if !in.Exists() {
		in = gjson.Parse("{}")
	}
	res, err := op(in)
	if want := c.Expect.Get("error"); want.Exists() {
		return checkError(want, res, err)
	}
	if err != nil {
		return fmt.Sprintf("unexpected error: %v", err)
	}
	var diffs []string
	c.Expect.ForEach(func(k, v gjson.Result) bool {
		if d := checkField(k.String(), v, res); d != "" {
			diffs = append(diffs, fmt.Sprintf("%s: %s", k.String(), d))
		}
		return true
	})
	return strings.Join(diffs, "\n")
}

func checkError(want gjson.Result, res Result, err error) string {
	if err == nil {
		got, _ := json.Marshal(plain(res))
		return fmt.Sprintf("expected error %s, got success %s", want.Raw, got)
	}
	list := occkit.Errors(err)
	all := err.Error()
	for _, n := range want.Get("neverMentions").Array() {
		if strings.Contains(all, n.String()) {
			return fmt.Sprintf("error mentions %q: %s", n.String(), all)
		}
	}
	var misses []string
	for _, e := range list {
		var m []string
		if s := want.Get("status"); s.Exists() && int(s.Int()) != e.HTTPStatus() {
			m = append(m, fmt.Sprintf("status %d != %d", e.HTTPStatus(), s.Int()))
		}
		if c := want.Get("code"); c.Exists() && c.String() != string(e.Code) {
			m = append(m, fmt.Sprintf("code %s != %s", e.Code, c.String()))
		}
		if p := want.Get("path"); p.Exists() && p.String() != e.Path.String() {
			m = append(m, fmt.Sprintf("path %q != %q", e.Path.String(), p.String()))
		}
		for _, s := range want.Get("mentions").Array() {
			if !strings.Contains(e.Error(), s.String()) {
				m = append(m, fmt.Sprintf("message lacks %q", s.String()))
			}
		}
		if len(m) == 0 {
			return ""
		}
		misses = append(misses, fmt.Sprintf("%s (%s)", e.Error(), strings.Join(m, ", ")))
	}
	return "no error matches " + want.Raw + ":\n  " + strings.Join(misses, "\n  ")
}

func checkField(key string, want gjson.Result, res Result) string {
	if key == "paths" {
		return checkPaths(want, res)
	}
	got, present := res[key]
	if chk, ok := got.(Check); ok {
		return chk(want)
	}
	if want.Type == gjson.Null {
		if present && got != nil {
			return fmt.Sprintf("want absent, got %v", got)
		}
		return ""
	}
	if !present {
		return "missing from result"
	}
	return diffJSON(want.Value(), got)
}

func checkPaths(want gjson.Result, res Result) string {
	doc, ok := res[DocumentKey].(occkit.Document)
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
		if v.Type == gjson.Null {
			if got.Exists() && got.Type != gjson.Null {
				diffs = append(diffs, fmt.Sprintf("%s: want absent, got %s", k.String(), got.Raw))
			}
			return true
		}
		if !got.Exists() {
			diffs = append(diffs, fmt.Sprintf("%s: absent, want %s", k.String(), v.Raw))
			return true
		}
		if d := diffJSON(v.Value(), got.Value()); d != "" {
			diffs = append(diffs, fmt.Sprintf("%s: %s", k.String(), d))
		}
		return true
	})
	return strings.Join(diffs, "\n")
}

// diffJSON compares two values as JSON (key order ignored, numbers as
// float64) and returns a cmp.Diff (-want +got), or "".
func diffJSON(want, got any) string {
	w, g := normalize(want), normalize(got)
	return cmp.Diff(w, g)
}

func normalize(v any) any {
	b, err := json.Marshal(plain(v))
	if err != nil {
		return fmt.Sprintf("<unmarshalable %T>", v)
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// plain drops Checks and turns Documents into JSON values so a result can
// be printed or compared.
func plain(v any) any {
	switch t := v.(type) {
	case Result:
		m := map[string]any{}
		for k, x := range t {
			if _, ok := x.(Check); ok {
				continue
			}
			m[k] = plain(x)
		}
		return m
	case occkit.Document:
		return json.RawMessage(t.Bytes())
	case Check:
		return nil
	}
	return v
}
