package occkit

import "testing"

// TestPathsThroughScalars: nothing is inside a scalar. A string whose
// text reads as JSON ("[1,2]", "[\u0026", "{\"x\":1}") is a string: a
// lookup through it finds nothing, a delete through it changes nothing,
// and a set through it replaces it with the object or array the path
// needs, as through any other scalar; every result is a valid Document.
// (gjson read such a string's text when looked up from the root member,
// and sjson edited inside it, breaking the document.)
func TestPathsThroughScalars(t *testing.T) {
	for _, v := range []string{`"[1,2]"`, `"[\u0026"`, `"{\"x\":1}"`, `"abc"`, `7`, `true`, `null`} {
		d := MustParseDocument(`{"g":` + v + `,"b":{"s":` + v + `}}`)
		d.Get(NewPath("b")) // root members located: lookups start from them
		for _, c := range []struct {
			path Path
			set  string // the document after SetRaw(path, 1)
		}{
			{NewPath("g").Index(0), `{"g":[1],"b":{"s":` + v + `}}`},
			{NewPath("g").Index(2), `{"g":[null,null,1],"b":{"s":` + v + `}}`},
			{NewPath("g", "x"), `{"g":{"x":1},"b":{"s":` + v + `}}`},
			{NewPath("b", "s").Index(0), `{"g":` + v + `,"b":{"s":[1]}}`},
			{NewPath("b", "s", "x", "y"), `{"g":` + v + `,"b":{"s":{"x":{"y":1}}}}`},
		} {
			if got := d.Get(c.path); got.Exists() {
				t.Errorf("%s: Get(%s) = %s, want nothing", d, c.path, got.Raw())
			}
			if d.Has(c.path) {
				t.Errorf("%s: Has(%s)", d, c.path)
			}
			del, err := d.Delete(c.path)
			if err != nil || !del.Equal(d) {
				t.Errorf("%s: Delete(%s) = %s, %v; want it unchanged", d, c.path, del, err)
			}
			set, err := d.SetRaw(c.path, []byte(`1`))
			if err != nil || set.String() != MustParseDocument(c.set).String() {
				t.Errorf("%s: SetRaw(%s, 1) = %s, %v; want %s", d, c.path, set, err, c.set)
			}
			viaSet, err := d.Set(c.path, 1)
			if err != nil || !viaSet.Equal(set) {
				t.Errorf("%s: Set(%s, 1) = %s, %v; want %s", d, c.path, viaSet, err, set)
			}
			for _, out := range []Document{del, set, viaSet} {
				if _, err := ParseDocument(out.bytes()); err != nil {
					t.Errorf("%s: an edit at %s made %s, not a Document: %v", d, c.path, out, err)
				}
			}
		}
	}
}
