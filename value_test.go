package occkit_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/occkit/occkit"
	"pgregory.net/rapid"
)

func TestValueKinds(t *testing.T) {
	doc := occkit.MustParseDocument(`{"o":{"a.b":1,"*":"star"},"a":[1,"x"],"s":"h\u00e9","n":-2.5,"t":true,"f":false,"z":null,"q":"12"}`)
	for _, tt := range []struct {
		key                    string
		kind                   occkit.Kind
		str                    string
		num                    float64
		obj, arr, boolean, nul bool
	}{
		{"o", occkit.KindObject, `{"a.b":1,"*":"star"}`, 0, true, false, false, false},
		{"a", occkit.KindArray, `[1,"x"]`, 0, false, true, false, false},
		{"s", occkit.KindString, "hé", 0, false, false, false, false},
		{"n", occkit.KindNumber, "-2.5", -2.5, false, false, false, false},
		{"t", occkit.KindBool, "true", 1, false, false, true, false},
		{"f", occkit.KindBool, "false", 0, false, false, true, false},
		{"z", occkit.KindNull, "", 0, false, false, false, true},
		{"q", occkit.KindString, "12", 12, false, false, false, false},
		{"missing", occkit.KindMissing, "", 0, false, false, false, false},
	} {
		v := doc.Get(occkit.NewPath(tt.key))
		if v.Kind() != tt.kind || v.String() != tt.str || v.Float() != tt.num ||
			v.IsObject() != tt.obj || v.IsArray() != tt.arr || v.IsBool() != tt.boolean || v.IsNull() != tt.nul ||
			v.IsString() != (tt.kind == occkit.KindString) || v.IsNumber() != (tt.kind == occkit.KindNumber) ||
			v.Exists() != (tt.kind != occkit.KindMissing) {
			t.Errorf("%s: kind %v string %q float %v object %v array %v bool %v null %v",
				tt.key, v.Kind(), v.String(), v.Float(), v.IsObject(), v.IsArray(), v.IsBool(), v.IsNull())
		}
		if v.Key("x").Exists() && tt.kind != occkit.KindObject {
			t.Errorf("%s: a non-object has a member", tt.key)
		}
	}
	// Keys are matched exactly: path syntax in a key is not interpreted.
	o := doc.Get(occkit.NewPath("o"))
	if o.Key("a.b").Int() != 1 || o.Key("*").String() != "star" || o.Key("a").Exists() {
		t.Errorf("Key interpreted path syntax: %s %s", o.Key("a.b").Raw(), o.Key("*").Raw())
	}
	if doc.Get(occkit.NewPath("a")).Key("0").Exists() {
		t.Error("Key indexed an array")
	}
	if got := doc.Get(occkit.NewPath("a")).Get(occkit.Root().Index(1)).String(); got != "x" {
		t.Errorf("Get(a[1]) = %q", got)
	}
	var members []string
	doc.Root().ForEach(func(k, v occkit.Value) bool {
		members = append(members, k.String()+"="+v.Raw())
		return k.String() != "n"
	})
	if d := cmp.Diff([]string{`o={"a.b":1,"*":"star"}`, `a=[1,"x"]`, `s="h\u00e9"`, `n=-2.5`}, members); d != "" {
		t.Errorf("ForEach (-want +got):\n%s", d)
	}
	var elems []string
	doc.Get(occkit.NewPath("a")).ForEach(func(k, v occkit.Value) bool {
		if k.Exists() {
			t.Errorf("an array element has key %s", k.Raw())
		}
		elems = append(elems, v.Raw())
		return true
	})
	if d := cmp.Diff([]string{`1`, `"x"`}, elems); d != "" {
		t.Errorf("ForEach over an array (-want +got):\n%s", d)
	}
	doc.Get(occkit.NewPath("s")).ForEach(func(k, v occkit.Value) bool {
		t.Errorf("a scalar has member %s", v.Raw())
		return true
	})
	if doc.Get(occkit.NewPath("s")).Array() != nil || doc.Get(occkit.NewPath("o")).Array() != nil {
		t.Error("a non-array has elements")
	}
	if n := len(doc.Get(occkit.NewPath("a")).Array()); n != 2 {
		t.Errorf("Array has %d elements", n)
	}
	if (occkit.Value{}).Kind() != occkit.KindMissing || occkit.KindObject.String() != "object" {
		t.Error("zero Value or Kind names")
	}
}

// TestValueMatchesEncodingJSON: for any JSON value, Kind, Raw and the
// members ForEach visits agree with what encoding/json decodes.
func TestValueMatchesEncodingJSON(t *testing.T) {
	scalar := rapid.OneOf(
		rapid.Just[any](nil), rapid.Bool().AsAny(), rapid.Float64Range(-1e9, 1e9).AsAny(),
		rapid.StringMatching(`[a-z.*\\"#@|]{0,6}`).AsAny(),
	)
	value := rapid.OneOf(scalar,
		rapid.MapOfN(rapid.StringMatching(`[a-z.*#@|]{0,4}`), scalar, 0, 4).AsAny(),
		rapid.SliceOfN(scalar, 0, 4).AsAny())
	rapid.Check(t, func(t *rapid.T) {
		want := value.Draw(t, "v")
		b, err := json.Marshal(map[string]any{"v": want})
		if err != nil {
			t.Fatal(err)
		}
		v := occkit.MustParseDocument(string(b)).Get(occkit.NewPath("v"))
		var raw any
		if err := json.Unmarshal([]byte(v.Raw()), &raw); err != nil {
			t.Fatalf("Raw %q: %v", v.Raw(), err)
		}
		if d := cmp.Diff(want, raw); d != "" {
			t.Fatalf("Raw decodes differently (-want +got):\n%s", d)
		}
		switch w := want.(type) {
		case nil:
			if v.Kind() != occkit.KindNull {
				t.Fatalf("kind %v", v.Kind())
			}
		case bool:
			if v.Kind() != occkit.KindBool || v.Bool() != w {
				t.Fatalf("kind %v", v.Kind())
			}
		case float64:
			if v.Kind() != occkit.KindNumber || v.Float() != w {
				t.Fatalf("kind %v float %v", v.Kind(), v.Float())
			}
		case string:
			if v.Kind() != occkit.KindString || v.String() != w {
				t.Fatalf("kind %v string %q", v.Kind(), v.String())
			}
		case map[string]any:
			got := map[string]any{}
			v.ForEach(func(k, e occkit.Value) bool {
				var x any
				if err := json.Unmarshal([]byte(e.Raw()), &x); err != nil {
					t.Fatal(err)
				}
				got[k.String()] = x
				if d := cmp.Diff(x, decode(t, v.Key(k.String()).Raw())); d != "" {
					t.Fatalf("Key(%q) differs from ForEach:\n%s", k.String(), d)
				}
				return true
			})
			if v.Kind() != occkit.KindObject || !cmp.Equal(w, got) {
				t.Fatalf("kind %v members %v", v.Kind(), got)
			}
		case []any:
			if v.Kind() != occkit.KindArray || len(v.Array()) != len(w) {
				t.Fatalf("kind %v len %d", v.Kind(), len(v.Array()))
			}
		}
	})
}

func decode(t *rapid.T, raw string) any {
	var x any
	if err := json.Unmarshal([]byte(raw), &x); err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	return x
}

func ExampleValue() {
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":{"primary":"openai/gpt-5.4","fallbacks":["anthropic/claude"]}}}}`)
	model := doc.Get(occkit.NewPath("agents", "defaults", "model"))
	fmt.Println(model.Kind(), model.Key("primary"))
	model.Key("fallbacks").ForEach(func(_, f occkit.Value) bool {
		fmt.Println("fallback", f)
		return true
	})
	fmt.Println(doc.Get(occkit.NewPath("agents", "list")).Exists())
	// Output:
	// object openai/gpt-5.4
	// fallback anthropic/claude
	// false
}
