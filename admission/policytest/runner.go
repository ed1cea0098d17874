package policytest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/json5"
)

// Case is one conformance case.
type Case struct {
	// File is the case file's name; Dir its directory, against which
	// a configurationFile resolves.
	File string
	Dir  string
	Op   string
	Name string
	Rule string
	// Input and Expect are the case's "input" and "expect" members as
	// JSON text; nil when the case has none.
	Input  json.RawMessage
	Expect json.RawMessage
	// Err, when set, is why the case could not be read; it fails.
	Err string
}

// result is what an op returns on success.
type result map[string]any

// checkFunc compares a result field with its expectation and returns a
// human-readable difference, or "" when it holds.
type checkFunc func(expect gjson.Result) string

// documentKey is the result key holding the document that "paths" reads.
const documentKey = "document"

type opFunc func(in input) (result, error)

// The limits of a case file, as of a document (compile.Limits), with room
// for the case around the document it carries: a file past them becomes
// one failing case, and nothing of it is read beyond the limit.
const (
	// MaxFileBytes is the largest case file: four documents of
	// compile.DefaultMaxBytes, so that a case can carry a document at
	// that limit written as a JSON string.
	MaxFileBytes = 4 * compile.DefaultMaxBytes
	// MaxFileDepth is the deepest nesting of a case file: encoding/json's
	// bound, which every occkit.Document keeps, and compile.HardMaxDepth.
	MaxFileDepth = 10_000
)

// Load reads every *.json and *.json5 case file of dir, in name order; a
// dir that cannot be read is an error that keeps its cause
// (fs.ErrNotExist, …). A file that is not an array of cases does not stop
// the others: it becomes one failing case (a file holding a single case
// object is read as that case), as does one larger than [MaxFileBytes] or
// nested deeper than
// [MaxFileDepth]. A file is checked against both before it is parsed, by a
// scan that keeps a counter, not a stack, so no nesting can exhaust the
// stack or the memory. A .json5 file is JSON5 (comments, trailing commas,
// unquoted keys, single quotes), read within the same limits.
func Load(dir string) ([]Case, error) {
	// A directory that cannot be read keeps its cause for errors.Is
	// (fs.ErrNotExist, fs.ErrPermission).
	if _, err := os.ReadDir(dir); err != nil {
		return nil, fmt.Errorf("policytest: %w", err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	more, err := filepath.Glob(filepath.Join(dir, "*.json5"))
	if err != nil {
		return nil, err
	}
	files = append(files, more...)
	if len(files) == 0 {
		return nil, fmt.Errorf("policytest: no case files in %s", dir)
	}
	sort.Strings(files)
	var out []Case
	for _, f := range files {
		b, err := readCaseFile(f)
		doc := gjson.ParseBytes(b)
		switch {
		case err != nil:
		case doc.IsObject():
			doc = gjson.Parse("[" + doc.Raw + "]")
		case !doc.IsArray():
			err = fmt.Errorf("not a JSON array of cases")
		}
		if err != nil {
			out = append(out, Case{File: filepath.Base(f), Name: "(case file)",
				Err: fmt.Sprintf("policytest: %s: %v", f, err)})
			continue
		}
		for i, c := range doc.Array() {
			name := c.Get("name").String()
			if name == "" {
				name = fmt.Sprintf("case %d", i)
			}
			cs := Case{
				File: filepath.Base(f), Dir: filepath.Dir(f), Op: c.Get("op").String(), Name: name,
				Rule: c.Get("rule").String(), Input: raw(c.Get("input")), Expect: raw(c.Get("expect")),
			}
			if !c.IsObject() {
				cs.Err = fmt.Sprintf("case %d is not a JSON object", i)
			}
			out = append(out, cs)
		}
	}
	return out, nil
}

// readCaseFile reads a case file within [MaxFileBytes] and checks that it
// is JSON nested at most [MaxFileDepth] deep.
func readCaseFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := fmt.Errorf("larger than the limit of %d bytes", MaxFileBytes)
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > MaxFileBytes {
		return nil, tooLarge
	}
	// Sized from the file's length, so that reading allocates once; the
	// limit holds if it grows meanwhile.
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileBytes+1)); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if len(b) > MaxFileBytes {
		return nil, tooLarge
	}
	if strings.HasSuffix(name, ".json5") {
		// The JSON5 parser counts its levels and stops at the limit; a
		// key written twice is refused, as in a document (DOC-2).
		var err error
		if b, err = json5.Transcode(b, json5.Options{MaxDepth: MaxFileDepth, RejectDuplicateKeys: true}); err != nil {
			return nil, fmt.Errorf("not JSON5 (%v), or nested deeper than the limit of %d levels", err, MaxFileDepth)
		}
	}
	// encoding/json's scanner is a loop with a counter of open levels,
	// and refuses more than MaxFileDepth.
	if !json.Valid(b) {
		return nil, fmt.Errorf("not valid JSON, or nested deeper than the limit of %d levels", MaxFileDepth)
	}
	return b, nil
}

// raw is v's JSON text, or nil when v is absent.
func raw(v gjson.Result) json.RawMessage {
	if !v.Exists() {
		return nil
	}
	return json.RawMessage(v.Raw)
}

// Runner runs cases with the caller's own admission rules. The zero
// Runner runs occkit's rules alone, as [Run] does.
type Runner struct {
	// Rules are registered with every admission the cases run
	// (admission.admit), as admission.Options.Rules.
	Rules []admission.Rule
}

// Run executes c and returns "" when it passes, else an explanation.
func Run(c Case) string { return Runner{}.Run(c) }

// Run executes c with r's rules and returns "" when it passes, else an
// explanation.
func (r Runner) Run(c Case) (failure string) {
	defer func() {
		if r := recover(); r != nil {
			failure = fmt.Sprintf("op panicked: %v", r)
		}
	}()
	if c.Err != "" {
		return c.Err
	}
	op, ok := opTable()[c.Op]
	if !ok {
		return fmt.Sprintf("unknown op %q", c.Op)
	}
	in, expect := gjson.ParseBytes(c.Input), gjson.ParseBytes(c.Expect)
	if !in.Exists() {
		in = gjson.Parse("{}")
	}
	var res result
	err := checkInput(c.Op, in)
	var doc *occkit.Document
	if err == nil {
		doc, err = loadConfigurationFile(c.Dir, in)
	}
	if err == nil {
		res, err = op(input{Result: in, doc: doc, rules: r.Rules})
	}
	var ce caseError
	if errors.As(err, &ce) {
		// The runner could not express the case's input, or the library
		// broke an invariant the runner checks: never a refusal that an
		// expected error may match.
		return "runner: " + ce.Error()
	}
	// "error": null expects no error, as a null success field means absent.
	if want := expect.Get("error"); want.Exists() && want.Type != gjson.Null {
		return checkError(want, res, err)
	}
	if err != nil {
		return fmt.Sprintf("unexpected error: %v", err)
	}
	var diffs []string
	expect.ForEach(func(k, v gjson.Result) bool {
		if k.String() == "error" {
			return true
		}
		if !slices.Contains(expectKeys[c.Op], k.String()) {
			diffs = append(diffs, fmt.Sprintf("%s: not an expectation of %s (%s)", k.String(), c.Op, strings.Join(expectKeys[c.Op], ", ")))
			return true
		}
		if d := checkField(k.String(), v, res); d != "" {
			diffs = append(diffs, fmt.Sprintf("%s: %s", k.String(), d))
		}
		return true
	})
	return strings.Join(diffs, "\n")
}

// caseError is a case input the runner cannot express (an unknown built-in
// harness name, a non-JSON event, ...) or an invariant of the runner's own
// that the library broke. It fails the case whatever it expects: it is not
// a refusal by the library.
type caseError struct{ msg string }

func (e caseError) Error() string { return e.msg }

func caseErrorf(format string, args ...any) error {
	return caseError{msg: fmt.Sprintf(format, args...)}
}

// errorKeys are the members of an expected error (FORMAT.md); any other
// member fails the case rather than going unchecked. "rule" compares the
// error's SPEC rule ID; "note" is ignored, as a case's own note is.
var errorKeys = map[string]bool{
	"status": true, "code": true, "path": true, "rule": true, "position": true,
	"mentions": true, "neverMentions": true, "note": true,
}

// MatchError is the matcher of error expectations: "" when err meets
// want, an expected error as a case writes it ({"status": 400, "code":
// …, "path": …, "rule": …, "position": …, "mentions": […],
// "neverMentions": […]}, or "CODE"), else what differs. A control plane
// that runs its own operation in its tests matches its refusals with it
// as this package's cases do.
func MatchError(want json.RawMessage, err error) string {
	return checkError(gjson.ParseBytes(want), result{}, err)
}

func checkError(want gjson.Result, res result, err error) string {
	if want.Type == gjson.String {
		// "error": "CODE" is {"error": {"code": "CODE"}}.
		b, _ := json.Marshal(map[string]string{"code": want.Str})
		want = gjson.ParseBytes(b)
	}
	if !want.IsObject() {
		return fmt.Sprintf("expect.error must be an object, got %s", want.Raw)
	}
	var unknown []string
	want.ForEach(func(k, _ gjson.Result) bool {
		if !errorKeys[k.String()] {
			unknown = append(unknown, k.String())
		}
		return true
	})
	if len(unknown) > 0 {
		return fmt.Sprintf("expect.error has keys the runner cannot check: %s", strings.Join(unknown, ", "))
	}
	wantPath, pathErr := expectedPath(want.Get("path"))
	if pathErr != nil {
		return pathErr.Error()
	}
	if err == nil {
		got, _ := json.Marshal(plain(res))
		return fmt.Sprintf("expected error %s, got success %s", want.Raw, got)
	}
	list := occkit.Errors(err)
	// Every member's message: an aggregate's own lists only the first
	// occkit.MaxListed.
	msgs := []string{err.Error()}
	for _, e := range list {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
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
		if p := want.Get("path"); p.Exists() && !wantPath(e.Path) {
			m = append(m, fmt.Sprintf("path %q != %s", e.Path.String(), p.Raw))
		}
		if r := want.Get("rule"); r.Exists() && r.String() != e.Rule {
			m = append(m, fmt.Sprintf("rule %q != %q", e.Rule, r.String()))
		}
		if p := want.Get("position"); p.Exists() && p.String() != e.Position.String() {
			m = append(m, fmt.Sprintf("position %q != %q", e.Position.String(), p.String()))
		}
		// The message is the refusal's: when the library returns several
		// problems at once, a mention may come from any of them (as
		// neverMentions reads them all).
		for _, s := range want.Get("mentions").Array() {
			if !strings.Contains(all, s.String()) {
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

// expectedPath reads an expected error path: a dot path as [occkit.Path.String]
// writes it ("[i]" indexes, ["key"] for any key, so models["main"] and
// models.main are the same path), a JSON pointer ("/agents/list"), or an
// array of keys and indexes; "" and null are the root (no path). A case
// names a setting by its path alone, whatever document holds it (the
// Agent's executionMode, the Configuration's agents.list): the document
// ([occkit.Path.Doc]) is not compared.
func expectedPath(v gjson.Result) (func(occkit.Path) bool, error) {
	switch {
	case !v.Exists() || v.Type == gjson.Null:
		return occkit.Path.IsRoot, nil
	case v.IsArray():
		p := occkit.Root()
		for _, seg := range v.Array() {
			switch {
			case seg.Type == gjson.Number && seg.Num >= 0 && seg.Num == float64(int(seg.Num)):
				p = p.Index(int(seg.Num))
			case seg.Type == gjson.String:
				p = p.Key(seg.Str)
			default:
				return nil, fmt.Errorf("expect.error.path: bad segment %s", seg.Raw)
			}
		}
		return sameSetting(p), nil
	case v.Type != gjson.String:
		return nil, fmt.Errorf("expect.error.path must be a string, got %s", v.Raw)
	case strings.HasPrefix(v.Str, "/"):
		// A pointer cannot tell the key "0" from the index 0; its rendering
		// is the same either way, so compare renderings.
		if _, err := occkit.ParsePointer(v.Str); err != nil {
			return nil, fmt.Errorf("expect.error.path: %v", err)
		}
		return func(p occkit.Path) bool { return p.Pointer() == v.Str }, nil
	}
	want, err := occkit.ParsePath(v.Str)
	if err != nil {
		return nil, fmt.Errorf("expect.error.path: %v", err)
	}
	return sameSetting(want), nil
}

// sameSetting matches a path with want's elements in any document.
func sameSetting(want occkit.Path) func(occkit.Path) bool {
	return func(p occkit.Path) bool { return p.In(want.Doc()).Equal(want) }
}

func checkField(key string, want gjson.Result, res result) string {
	if key == "paths" {
		return checkPaths(want, res)
	}
	got, present := res[key]
	if chk, ok := got.(checkFunc); ok {
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
	return diffJSON(want, got)
}

func checkPaths(want gjson.Result, res result) string {
	doc, ok := res[documentKey].(occkit.Document)
	if !ok {
		return "op returned no document"
	}
	if want.Type == gjson.Null {
		return ""
	}
	if !want.IsObject() {
		return fmt.Sprintf("paths must map paths to values, got %s", want.Raw)
	}
	var diffs []string
	want.ForEach(func(k, v gjson.Result) bool {
		// A dot path, or a JSON pointer (a dot path never starts with '/').
		parse := occkit.ParsePath
		if strings.HasPrefix(k.String(), "/") {
			parse = occkit.ParsePointer
		}
		p, err := parse(k.String())
		if err != nil {
			diffs = append(diffs, err.Error())
			return true
		}
		got := doc.Get(p)
		if v.Type == gjson.Null {
			if got.Exists() && !got.IsNull() {
				diffs = append(diffs, fmt.Sprintf("%s: want absent, got %s", k.String(), got.Raw()))
			}
			return true
		}
		if !got.Exists() {
			diffs = append(diffs, fmt.Sprintf("%s: absent, want %s", k.String(), v.Raw))
			return true
		}
		if d := diffJSON(v, got); d != "" {
			diffs = append(diffs, fmt.Sprintf("%s: %s", k.String(), d))
		}
		return true
	})
	return strings.Join(diffs, "\n")
}

// diffJSON compares two values as JSON (key order ignored, numbers compared
// by meaning: a JSON number means the IEEE-754 double nearest to it, as
// OpenClaw reads it and as the RFC 8785 canonical form writes it, so 1,
// 1.0, 1e0 are equal and so are two integers past 2^53 that round to one
// double; a number past the double range stays its exact text) and
// returns a cmp.Diff
// (-want +got), or "". A gjson.Result is taken by its raw text.
func diffJSON(want, got any) string {
	w, g := normalize(want), normalize(got)
	return cmp.Diff(w, g)
}

// exactNumber is a number outside the double range, by its text.
type exactNumber string

func normalize(v any) any {
	switch r := v.(type) {
	case gjson.Result:
		if !r.Exists() {
			return nil
		}
		v = json.RawMessage(r.Raw)
	case occkit.Value:
		if !r.Exists() {
			return nil
		}
		v = json.RawMessage(r.Raw())
	}
	b, err := json.Marshal(plain(v))
	if err != nil {
		return fmt.Sprintf("<unmarshalable %T>", v)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		return fmt.Sprintf("<undecodable %T>", v)
	}
	return numbers(out)
}

// numbers replaces each json.Number by the double it means.
func numbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = numbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = numbers(x)
		}
	case json.Number:
		// ParseFloat rounds as math/big would, in time linear in the
		// literal whatever its exponent; an underflow reads as zero.
		f, err := strconv.ParseFloat(string(t), 64)
		if math.IsInf(f, 0) || err != nil && f != 0 {
			return exactNumber(t)
		}
		return f
	}
	return v
}

// plain drops Checks and turns Documents into JSON values so a result can
// be printed or compared.
func plain(v any) any {
	switch t := v.(type) {
	case result:
		m := map[string]any{}
		for k, x := range t {
			if _, ok := x.(checkFunc); ok {
				continue
			}
			m[k] = plain(x)
		}
		return m
	case occkit.Document:
		return json.RawMessage(t.Bytes())
	case checkFunc:
		return nil
	}
	return v
}
