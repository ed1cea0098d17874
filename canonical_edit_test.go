package occkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// editKeys are the keys of the documents and paths of the edit-tree
// test: the stamp's own, spellings of one name (plain and escaped), keys
// outside ASCII (one of them ordered otherwise in UTF-16), and keys sjson
// reads specially (empty, digits, a dot, a quote). The spellings are
// written into documents as they are: each is a JSON string literal.
var editKeys = []string{`"logging"`, `"l\u006fgging"`, `"level"`, `"lev\u0065l"`, `"diagnostics"`, `"otel"`, `"logs"`,
	`"a"`, `"é"`, `"😀"`, `"\ue000"`, `""`, `"0"`, `"x.y"`, `"q\""`}

// genEditKey is a key of editKeys, one of the stamp's own (the first
// seven) two times in three, so that edits and documents meet.
func genEditKey(t *rapid.T) string {
	if rapid.IntRange(0, 2).Draw(t, "stamp key") > 0 {
		return rapid.SampledFrom(editKeys[:7]).Draw(t, "key")
	}
	return rapid.SampledFrom(editKeys).Draw(t, "key")
}

// genEditJSON is compact JSON text of nested objects whose keys are
// editKeys, arrays and scalars. Unless repeat, no object names a key
// twice (in any spelling).
func genEditJSON(t *rapid.T, depth int, repeat bool) string {
	switch k := rapid.IntRange(0, 9).Draw(t, "kind"); {
	case k < 5 && depth < 3:
		var sb strings.Builder
		sb.WriteByte('{')
		seen := map[string]bool{}
		for n := rapid.IntRange(0, 4).Draw(t, "members"); n > 0; n-- {
			lit := genEditKey(t)
			var name string
			_ = json.Unmarshal([]byte(lit), &name)
			if seen[name] && !repeat {
				continue
			}
			if len(seen) > 0 || sb.Len() > 1 {
				sb.WriteByte(',')
			}
			seen[name] = true
			sb.WriteString(lit + ":" + genEditJSON(t, depth+1, repeat))
		}
		return sb.String() + "}"
	case k < 6 && depth < 3:
		return "[" + genEditJSON(t, depth+1, repeat) + "," + genEditJSON(t, depth+1, repeat) + "]"
	default:
		return rapid.SampledFrom([]string{`"x"`, `"a\u00e9\n"`, `1`, `1.0`, `-0`, `2e3`, `true`, `false`, `null`, `{}`, `[]`}).Draw(t, "scalar")
	}
}

// stampPaths are the paths of the edits logging.Stamp makes, in its
// order.
var stampPaths = []Path{NewPath("logging", "redactSensitive"), NewPath("logging", "level"),
	NewPath("logging", "consoleLevel"), NewPath("logging", "consoleStyle"), NewPath("diagnostics", "otel", "logs")}

// genEditPath is a path of one to three keys of genEditKey (decoded), now
// and then with an array index.
func genEditPath(t *rapid.T) Path {
	var b PathBuilder
	for n := rapid.IntRange(1, 3).Draw(t, "depth"); n > 0; n-- {
		if rapid.IntRange(0, 19).Draw(t, "index") == 0 {
			b.Index(rapid.IntRange(0, 1).Draw(t, "i"))
			continue
		}
		var k string
		_ = json.Unmarshal([]byte(genEditKey(t)), &k)
		b.Key(k)
	}
	return b.Path()
}

// TestCanonicalEditTreeMatchesTheLongWay holds the edit tree of
// CanonicalApply (the edits made by the canonical writer as it passes
// the members they name) to CanonicalDocument of Apply, on documents
// whose objects nest the names the edits reach inside, in plain and
// escaped spellings, outside ASCII and sometimes repeated (a Document
// made inside the package may hold a repeated key), with roots that are
// not objects now and then, and on edits that set compact, indented,
// invalid or refused values (a repeated key, a lone surrogate) or delete:
// the same bytes and root index, or the same error (code, status, path,
// rule and message). The test fails if fewer than one draw in three takes
// the edit tree, so that it cannot pass vacuously.
func TestCanonicalEditTreeMatchesTheLongWay(t *testing.T) {
	var draws, tree int
	rapid.Check(t, func(t *rapid.T) {
		repeat := rapid.IntRange(0, 5).Draw(t, "repeat") == 0
		var d Document
		switch rapid.IntRange(0, 9).Draw(t, "root") {
		case 0:
			d = newDocument([]byte(genEditJSON(t, 2, repeat)))
		default:
			src := genEditJSON(t, 0, repeat)
			if src[0] != '{' {
				src = `{"logging":` + src + `}`
			}
			d = newDocument([]byte(src))
		}
		if !repeat {
			parsed, err := ParseDocument(d.bytes())
			if err != nil {
				t.Fatalf("generator made an invalid document %s: %v", d, err)
			}
			d = parsed
		}
		if rapid.Bool().Draw(t, "look") {
			d.Get(NewPath("logging"))
		}
		// The paths of the stamp's edits (logging.Stamp) half of the
		// time, in its order; else any.
		var edits []Edit
		if rapid.Bool().Draw(t, "stamp") {
			for _, p := range stampPaths {
				if rapid.Bool().Draw(t, "stamped") {
					edits = append(edits, genEdit(t, p))
				}
			}
		}
		for n := rapid.IntRange(1, 3).Draw(t, "edits"); len(edits) == 0 && n > 0; n-- {
			edits = append(edits, genEdit(t, genEditPath(t)))
		}
		got, err, want, werr := bothWays(t, d, edits)
		draws++
		if d.top != nil && d.Root().IsObject() {
			var buf [8]editNode
			if nodes, ok := editTree(buf[:0], edits); ok {
				if setValues(nodes, edits) != nil {
					tree++
				} else if _, _, _, ok := canonicalWith(d, nodes); ok {
					tree++
				}
			}
		}
		sameResult(t, d, edits, got, err, want, werr)
	})
	t.Logf("%d of %d draws took the edit tree", tree, draws)
	if draws > 0 && tree*3 < draws {
		t.Fatalf("only %d of %d draws took the edit tree", tree, draws)
	}
}

// genEdit is an edit of p that deletes or sets a compact, indented,
// invalid or refused value (a repeated key, a lone surrogate).
func genEdit(t *rapid.T, p Path) Edit {
	if rapid.IntRange(0, 3).Draw(t, "delete") == 0 {
		return Edit{Path: p, Delete: true}
	}
	raw := []byte(genEditJSON(t, 1, false))
	switch rapid.IntRange(0, 11).Draw(t, "raw") {
	case 0:
		var buf bytes.Buffer
		_ = json.Indent(&buf, raw, "", "  ")
		raw = buf.Bytes()
	case 1:
		raw = []byte(`{"unclosed":`)
	case 2:
		raw = []byte(`{"a":1,"\u0061":2}`)
	case 3:
		raw = []byte(`"\ud800"`)
	}
	return Edit{Path: p, Raw: raw}
}

// bothWays is CanonicalApply of d and edits, and the long way: Apply,
// then CanonicalDocument of what it made. It fails t if CanonicalApply
// wrote its source.
func bothWays(t interface{ Fatalf(string, ...any) }, d Document, edits []Edit) (got Document, err error, want Document, werr error) {
	want, werr = d.Apply(edits...)
	if werr == nil {
		want = CanonicalDocument(want)
	}
	before := d.String()
	got, err = CanonicalApply(d, edits...)
	if d.String() != before {
		t.Fatalf("CanonicalApply changed its source: %s, was %s", d, before)
	}
	return got, err, want, werr
}

// sameOutcome reports whether CanonicalApply's result (got, err) is the
// long way's (want, werr): the same bytes, or the same error text.
func sameOutcome(got Document, err error, want Document, werr error) bool {
	if (err == nil) != (werr == nil) {
		return false
	}
	if err != nil {
		return err.Error() == werr.Error()
	}
	return bytes.Equal(got.bytes(), want.bytes())
}

// sameResult fails unless CanonicalApply's result (got, err) is the long
// way's (want, werr): the same bytes and root index, or the same error.
func sameResult(t *rapid.T, d Document, edits []Edit, got Document, err error, want Document, werr error) {
	if (err == nil) != (werr == nil) {
		t.Fatalf("%s with %v: error %v, the long way %v", d, edits, err, werr)
	}
	if err != nil {
		var e, w *Error
		if !errors.As(err, &e) || !errors.As(werr, &w) {
			t.Fatalf("%s with %v: error %#v, the long way %#v", d, edits, err, werr)
		}
		if err.Error() != werr.Error() || e.Code != w.Code || e.HTTPStatus() != w.HTTPStatus() ||
			e.Path.String() != w.Path.String() || e.Rule != w.Rule || e.Detail != w.Detail {
			t.Fatalf("%s with %v: error %q, the long way %q", d, edits, err, werr)
		}
		return
	}
	if !bytes.Equal(got.bytes(), want.bytes()) {
		t.Fatalf("%s with %v:\n got %s\nwant %s", d, edits, got, want)
	}
	if got.Root().IsObject() {
		// (The index of another root is only ever asked whether it is
		// an object.)
		checkIndex(t, got, "CanonicalApply of "+d.String())
	}
}

// TestCanonicalApplyEditThenItsMember: an edit inside a member followed by
// an edit of the member itself is no splice (Apply makes them one at a
// time, and sjson refuses to set a key inside an array), so the edit
// tree must not take it, though the later edit would replace what the
// earlier made.
func TestCanonicalApplyEditThenItsMember(t *testing.T) {
	for _, src := range []string{`{"a":[1],"b":2}`, `{"a":{"b":1}}`, `{"a":"s"}`, `{}`} {
		d := MustParseDocument(src)
		for _, edits := range [][]Edit{
			{{Path: NewPath("a", "b"), Raw: []byte(`"x"`)}, {Path: NewPath("a"), Raw: []byte(`2`)}},
			{{Path: NewPath("a", "b"), Raw: []byte(`"x"`)}, {Path: NewPath("a"), Delete: true}},
			{{Path: NewPath("a", "b", "c"), Raw: []byte(`"x"`)}, {Path: NewPath("a", "b"), Raw: []byte(`2`)}},
		} {
			if got, err, want, werr := bothWays(t, d, edits); !sameOutcome(got, err, want, werr) {
				t.Errorf("%s with %v: got %s (%v), want %s (%v)", src, edits, got, err, want, werr)
			}
		}
	}
}

// FuzzCanonicalApplyMatchesTheLongWay holds CanonicalApply to
// CanonicalDocument of Apply on any document ParseDocument takes and
// edits read from spec: one a line, "path=value" to set or "-path" to
// delete, the path's keys separated by slashes (a key "#n" is the index
// n).
func FuzzCanonicalApplyMatchesTheLongWay(f *testing.F) {
	stamp := "-logging/redactSensitive\nlogging/level=\"info\"\nlogging/consoleLevel=\"info\"\nlogging/consoleStyle=\"json\"\ndiagnostics/otel/logs=false"
	for _, s := range [][2]string{
		{`{"logging":{"level":"debug","redactSensitive":"off"},"b":[1]}`, stamp},
		{`{"l\u006fgging":{"lev\u0065l":1,"file":"x"},"diagnostics":{"otel":"on"}}`, stamp},
		{`{"logging":"verbose","diagnostics":{"otel":{"logs":true,"x":1}}}`, "logging={\"level\":\"warn\"}\ndiagnostics/otel/logs=false"},
		{`{"a":[{"b":1}],"é":{"😀":{}}}`, "a/#0/b=2\né/😀/x=[1, 2]\n-é/q"},
		{`[{"logging":{}}]`, stamp},
		{`{"a":{"0":1,"x.y":{}}}`, "a/0=3\na/x.y/z=\"\\ud800\"\n-a"},
	} {
		f.Add([]byte(s[0]), s[1])
	}
	f.Fuzz(func(t *testing.T, b []byte, spec string) {
		d, err := ParseDocument(b)
		if err != nil {
			return
		}
		var edits []Edit
		for _, line := range strings.Split(spec, "\n") {
			path, raw, _ := strings.Cut(strings.TrimPrefix(line, "-"), "=")
			var pb PathBuilder
			for _, k := range strings.Split(path, "/") {
				if n, err := strconv.Atoi(strings.TrimPrefix(k, "#")); err == nil && strings.HasPrefix(k, "#") && n >= 0 && n < 1<<16 {
					pb.Index(n)
				} else {
					pb.Key(k)
				}
			}
			edits = append(edits, Edit{Path: pb.Path(), Raw: []byte(raw), Delete: strings.HasPrefix(line, "-")})
		}
		if got, err, want, werr := bothWays(t, d, edits); !sameOutcome(got, err, want, werr) {
			t.Fatalf("%s with %v:\n got %s (%v)\nwant %s (%v)", d, edits, got, err, want, werr)
		}
	})
}
