package openclawschema

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// rootSectionsByGJSON is how channelIssues found the channels and plugins
// sections before it read the root's members from the schema walk's
// outline: a gjson iteration of the whole root. Kept as the oracle of
// TestRootSectionsAgree.
func rootSectionsByGJSON(src string) (channels, plugins gjson.Result) {
	gjson.Parse(src).ForEach(func(k, v gjson.Result) bool {
		switch keyOf(k) {
		case "channels":
			if !channels.Exists() {
				channels = v
			}
		case "plugins":
			if !plugins.Exists() {
				plugins = v
			}
		}
		return true
	})
	return channels, plugins
}

// TestRootSectionsAgree: the channels and plugins sections, and so every
// channel id refusal, are the same read from the walk's outline, read by
// scanning the root in place, and read by a gjson iteration (the oracle),
// on documents with repeated, escaped and padded keys, accepted or
// refused by the schema.
func TestRootSectionsAgree(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	// Each class is one key in its spellings (a Document holds no
	// repeated key, DOC-2).
	keys := [][]string{{`"channels"`, `"\u0063hannels"`}, {`"plugins"`, `"plu\u0067ins"`}, {`"plugins "`}, {`"logging"`}, {`"gateway"`}, {`"x"`}}
	ids := [][]string{{`"slack"`}, {`"salck"`}, {`" telegram "`}, {`"mychan"`, `"my\u0063han"`}, {`"defaults"`}, {`""`}, {`"openai"`}}
	plugin := []string{`{}`, `{"allow":["mychan"]}`, `{"entries":{"MyChan":{}}}`, `{"installs":{"salck":{}}}`,
		`{"load":{"paths":["/opt/p"]}}`, `{"load":{"paths":[]}}`, `{"allow":[1,"openai"]}`, `[]`}
	distinct := func(t *rapid.T, classes [][]string, max int, label string) []string {
		var out []string
		for _, c := range rapid.SliceOfNDistinct(rapid.IntRange(0, len(classes)-1), 0, max, rapid.ID[int]).Draw(t, label) {
			out = append(out, rapid.SampledFrom(classes[c]).Draw(t, label+" spelling"))
		}
		return out
	}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		b.WriteString("{")
		for i, k := range distinct(t, keys, 5, "keys") {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k + ": ")
			switch rapid.IntRange(0, 3).Draw(t, "value") {
			case 0:
				b.WriteString("{")
				for j, id := range distinct(t, ids, 4, "ids") {
					if j > 0 {
						b.WriteString(",")
					}
					b.WriteString(id + ":{}")
				}
				b.WriteString("}")
			case 1:
				b.WriteString(rapid.SampledFrom(plugin).Draw(t, "plugins"))
			case 2:
				b.WriteString(`"text"`)
			default:
				b.WriteString(`{"level":"debug"}`)
			}
		}
		b.WriteString(" }")
		doc, err := occkit.ParseDocument([]byte(b.String()))
		if err != nil {
			t.Fatalf("%s: %v", b.String(), err)
		}
		src := doc.String()
		wantC, wantP := rootSectionsByGJSON(src)
		walked := v.walk(doc)
		for name, r := range map[string]reading{"outline": walked, "scan": {src: walked.src}} {
			if r.src != src {
				continue // the walk read specView's text: not this case's
			}
			c, p := rootSections(r)
			if c.Raw != wantC.Raw || p.Raw != wantP.Raw {
				t.Fatalf("%s: %s: sections %q %q, want %q %q", name, src, c.Raw, p.Raw, wantC.Raw, wantP.Raw)
			}
			want := errorTexts(v.contract.channelIDIssues(wantC, wantP))
			if diff := cmp.Diff(want, errorTexts(v.contract.channelIssues(r))); diff != "" {
				t.Fatalf("%s: %s: refusals (-oracle +got):\n%s", name, src, diff)
			}
		}
	})
}

func errorTexts(errs []error) []string {
	var out []string
	for _, e := range occkit.Errors(occkit.Join(errs...)) {
		out = append(out, string(e.Code)+" "+e.Rule+" "+e.Path.String()+" "+e.Error())
	}
	return out
}
