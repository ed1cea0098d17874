package compile

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// quietObjects are objects quietObject passes over in one read, and near
// misses of each test it makes, which the walk reads member by member: a
// key with an escape, one naming a credential (in any case, a short one),
// a string with an escape, one that is or may be a URL (each byte of
// urlBytes), of 32 and 33 bytes (the bound of mayBeURL), not ASCII; an
// object or a headers map inside; arrays of strings, numbers, literals and
// objects, pickerRuntimes among them; an id where the walk collects one.
var quietObjects = []string{
	`{}`,
	`{"id":"model-1","name":"Model 1"}`,
	`{"id":"model-1","name":"Model 1","contextWindow":128000,"maxTokens":8192,"input":["text"]}`,
	`{"temperature":0.5,"maxTokens":1024,"stream":true,"x":null,"y":false,"z":-1.5e3}`,
	`{"input":[],"tags":["a","b",1,true,null]}`,
	`{"id":"日本語","":""}`,
	`{"id":"` + strings.Repeat("x", 32) + `"}`,
	`{"id":"` + strings.Repeat("x", 33) + `"}`,
	`{"id":"` + strings.Repeat("x", 31) + `:"}`,
	`{"url":"https://h"}`,
	`{"baseUrl":"https://api.anthropic.com","api":"anthropic-messages"}`,
	`{"id":"a@b"}`,
	`{"id":"?x"}`,
	`{"id":"#x"}`,
	`{"id":"svc:KEY"}`,
	`{"id":"a\"b"}`,
	`{"i\u0064":"x"}`,
	`{"apiKey":"k"}`,
	`{"name":"x","token":1}`,
	`{"API_KEY":"k"}`,
	`{"password":["p"]}`,
	`{"ca":"x"}`,
	`{"pfx":"x"}`,
	`{"key":"x"}`,
	`{"headers":{"Authorization":"Bearer x"}}`,
	`{"id":"x","params":{"a":1}}`,
	`{"tags":["a",{"apiKey":"k"}]}`,
	`{"tags":["https://h?token=1"]}`,
	`{"tags":["` + strings.Repeat("x", 33) + `"]}`,
	`{"tags":[["a"]]}`,
	`{"pickerRuntimes":["codex"]}`,
	`{"pickerRuntimes":["codex","a@b"],"id":"x"}`,
	`{"agentRuntime":{"id":"codex","x":1}}`,
	`{"id":"codex","x":1}`,
}

// quietDocument is runtimeOnlyDocument of scopes holding each object
// where the walk meets it: a catalog's element, a member below a scope,
// an element of an array, an entry's agentRuntime (whose id the walk
// collects) and an element of its pickerRuntimes.
func quietDocument(objects []string) []string {
	var scopes []string
	for _, o := range objects {
		scopes = append(scopes,
			`{"models":[`+o+`,`+o+`]}`,
			`{"params":`+o+`,"x":{"y":`+o+`}}`,
			`{"list":[`+o+`]}`,
			`{"agentRuntime":`+o+`}`,
			`{"pickerRuntimes":[`+o+`]}`,
		)
	}
	return scopes
}

// TestQuietObjectsMatchOracle holds the walk that passes over an object
// holding nothing for it in one read (quietObject) to the scan's oracle,
// which walks every member: each of quietObjects alone and all of them
// together, at every place of quietDocument, with every extent kept
// (minKnown 0 and 1) and the default.
func TestQuietObjectsMatchOracle(t *testing.T) {
	checkEachAndAll(t, quietObjects, func(objects []string) occkit.Document {
		return runtimeOnlyDocument(quietDocument(objects))
	})
}

// TestQuietObjectsDrawn is TestQuietObjectsMatchOracle on objects drawn
// member by member from the keys and values quietObject tells apart.
func TestQuietObjectsDrawn(t *testing.T) {
	pol := SecretPolicyFor("")
	keys := []string{"id", "name", "input", "maxTokens", "apiKey", "token", "secret", "ca", "url", "nam\\u0065s", "headers", "pickerRuntimes", "agentRuntime", "", "é"}
	values := []string{`"x"`, `"model-1"`, `""`, `"a:b"`, `"a@b"`, `"` + strings.Repeat("y", 32) + `"`, `"` + strings.Repeat("y", 33) + `"`,
		`"a\nb"`, `1`, `-0.5e3`, `true`, `null`, `[]`, `["text"]`, `["a","b:c"]`, `[1,{"x":1}]`, `{}`, `{"x":"y"}`}
	rapid.Check(t, func(t *rapid.T) {
		defer func(n int) { minKnown = n }(minKnown)
		minKnown = rapid.SampledFrom([]int{0, 1, minKnown}).Draw(t, "minKnown")
		var objects []string
		for range rapid.IntRange(1, 4).Draw(t, "objects") {
			var m []string
			for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(keys), 0, 5, rapid.ID[string]).Draw(t, "keys") {
				m = append(m, `"`+k+`":`+rapid.SampledFrom(values).Draw(t, "value"))
			}
			objects = append(objects, "{"+strings.Join(m, ",")+"}")
		}
		checkScanOracle(t, runtimeOnlyDocument(quietDocument(objects)), pol)
	})
}

// TestQuietObjectReadsWhatItIsFor: the objects quietObject is for (a
// catalog's elements) are passed over in one read, and its near misses
// are not.
func TestQuietObjectReadsWhatItIsFor(t *testing.T) {
	for _, tc := range []struct {
		obj string
		ok  bool
	}{
		{`{}`, true},
		{`{"id":"model-1","name":"Model 1"}`, true},
		{`{"id":"model-1","name":"Model 1","contextWindow":128000,"maxTokens":8192,"input":["text"]}`, true},
		{`{"id":"` + strings.Repeat("x", 32) + `"}`, true},
		{`{"id":"` + strings.Repeat("x", 33) + `"}`, false},
		{`{"id":"a:b"}`, false},
		{`{"apiKey":"k"}`, false},
		{`{"i\u0064":"x"}`, false},
		{`{"id":"x","y":{}}`, false},
		{`{"pickerRuntimes":["codex"]}`, false},
		{`{"id":"x" }`, false},
	} {
		raw := `[` + tc.obj + `]`
		if end := quietObject(raw, 1); (end > 0) != tc.ok || tc.ok && end != 1+len(tc.obj) {
			t.Errorf("quietObject(%s) = %d, want %v (end %d)", tc.obj, end, tc.ok, 1+len(tc.obj))
		}
	}
}
