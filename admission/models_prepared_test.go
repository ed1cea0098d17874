package admission

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/logging"
	"github.com/occkit/occkit/resolver"
)

// modelCheck is what one check of the selected models tells: every
// warning and refusal (code, rule, path, detail, suggestion, in order)
// and where the primary is written.
type modelCheck struct {
	Warnings, Refusals []string
	PrimaryAt          string
}

func errRow(e *occkit.Error) string {
	return fmt.Sprintf("%s|%s|%s|%s|%s|%s", e.Code, e.Rule, e.Path.String(), e.Detail, e.Suggestion, e.Error())
}

func modelCheckOf(warnings []*occkit.Error, at occkit.Path, err error) modelCheck {
	c := modelCheck{PrimaryAt: at.String()}
	for _, w := range warnings {
		c.Warnings = append(c.Warnings, errRow(w))
	}
	for _, e := range occkit.Errors(err) {
		c.Refusals = append(c.Refusals, errRow(e))
	}
	if err != nil && len(c.Refusals) == 0 {
		c.Refusals = append(c.Refusals, err.Error())
	}
	return c
}

// checkAgainstWalk fails when checkModelsAt, reading the resolver's
// index of doc, tells other than the walk of the document admitted (doc
// itself, and doc as the platform's logging stamp edits it), for primary
// and for each release. It reports whether doc resolves (the check is
// made only then, as Admit makes it).
func checkAgainstWalk(t *rapid.T, doc occkit.Document, primaries []string) (resolved bool, findings int) {
	res := resolver.Prepare(doc)
	if res.Err() != nil {
		if res.SelectedModels(func(resolver.SelectedModel) bool { return true }) {
			t.Fatalf("%s: an analysis with problems lists selections", doc)
		}
		return false, 0
	}
	if dec, err := res.Resolve(resolver.Request{Compute: occkit.ComputeSSH}); err == nil {
		primaries = append(primaries, dec.Primary)
	}
	stamped, err := logging.Stamp(doc, occkit.LevelWarn, occkit.OwnedByPlatform)
	if err != nil {
		stamped = doc
	}
	analyses := map[string]*resolver.Prepared{"as read": res, "stamped": resolver.Prepare(stamped)}
	for _, release := range []string{"2026.9.6", "1999.1.1"} {
		for _, primary := range primaries {
			for _, admitted := range []occkit.Document{doc, stamped} {
				want := modelCheckOf(walkCheckModelsAt(admitted, release, primary))
				findings += len(want.Warnings) + len(want.Refusals)
				for name, a := range analyses {
					got := modelCheckOf(checkModelsAt(a, release, primary))
					if d := cmp.Diff(want, got); d != "" {
						t.Fatalf("%s\nrelease %s, primary %q, analysis %s: (-walk +index):\n%s", admitted, release, primary, name, d)
					}
				}
			}
		}
	}
	return true, findings
}

// esc spells key as a JSON string, now and then with its first letter
// escaped.
func esc(t *rapid.T, key, label string) string {
	if key != "" && rapid.IntRange(0, 5).Draw(t, label+"-esc") == 0 {
		return fmt.Sprintf(`"\u%04x%s"`, key[0], key[1:])
	}
	return fmt.Sprintf("%q", key)
}

// genResolvingDocument draws a Configuration that mostly resolves: one
// provider (built in, a typo of one, unknown, configured under
// models.providers or routed by plugins.entries, under keys written as
// refs normalize them or not), refs padded, cased and with profiles,
// settings under agents.defaults and entries in any order, and the
// runtime policies the provider needs in a catalog, a provider, or
// missing.
func genResolvingDocument(t *rapid.T) (occkit.Document, []string) {
	provider := rapid.SampledFrom([]string{"anthropic", "antropic", "openai", "corp", "ollama", "zzzcorp", "openrouter", "codex"}).Draw(t, "provider")
	ids := []string{"claude-sonnet-4-6", "claude-sonet-4-6", "claude-haiku-4-5", "gpt-5", "gpt-5.5", "m1", "zzz-model-x", "x/y"}
	// One primary, written in several spellings; a fallback any ID.
	primaryID := rapid.SampledFrom(ids).Draw(t, "primary-id")
	profile := rapid.SampledFrom([]string{"", "", "", "@work"}).Draw(t, "primary-profile")
	spell := func(label, id, profile string) string {
		p := rapid.SampledFrom([]string{provider, " " + provider, strings.ToUpper(provider), provider + " "}).Draw(t, label+"-p")
		return p + "/" + rapid.SampledFrom([]string{id, " " + id, id + " "}).Draw(t, label+"-pad") + profile
	}
	var refs []string // every ref written, for the catalog of policies
	model := func(label string) string {
		id, pf := primaryID, profile
		if rapid.IntRange(0, 7).Draw(t, label+"-other-primary") == 0 {
			id = rapid.SampledFrom(ids).Draw(t, label+"-primary-id")
		}
		primary := spell(label+"-primary", id, pf)
		refs = append(refs, primary)
		if rapid.Bool().Draw(t, label+"-string") {
			return fmt.Sprintf("%q", primary)
		}
		var fbs []string
		for i, n := 0, rapid.IntRange(0, 4).Draw(t, label+"-n"); i < n; i++ {
			fl := fmt.Sprintf("%s-fb%d", label, i)
			f := spell(fl, rapid.SampledFrom(ids).Draw(t, fl+"-id"), rapid.SampledFrom([]string{"", "", "@work"}).Draw(t, fl+"-profile"))
			refs = append(refs, f)
			fbs = append(fbs, fmt.Sprintf("%q", f))
		}
		members := []string{esc(t, "primary", label+"-pk") + fmt.Sprintf(":%q", primary)}
		if len(fbs) > 0 || rapid.Bool().Draw(t, label+"-empty") {
			members = append(members, esc(t, "fallbacks", label+"-fk")+":["+strings.Join(fbs, ",")+"]")
		}
		if rapid.Bool().Draw(t, label+"-swap") {
			members[0], members[len(members)-1] = members[len(members)-1], members[0]
		}
		return "{" + strings.Join(members, ",") + "}"
	}

	var agents []string
	defaultsModel := rapid.IntRange(0, 3).Draw(t, "defaults") > 0
	// The entries share one primary, spelled their own way.
	var entries []string
	ids2 := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"main", "b", "a_x", "zz", "ops"}), 0, 4, func(s string) string { return s }).Draw(t, "entries")
	var defaults string
	if defaultsModel {
		defaults = model("defaults")
	}
	for i, id := range ids2 {
		label := fmt.Sprintf("entry%d", i)
		if !rapid.Bool().Draw(t, label+"-own") && defaultsModel {
			entries = append(entries, esc(t, id, label+"-k")+`:{"skills":[]}`)
			continue
		}
		entries = append(entries, esc(t, id, label+"-k")+":{"+esc(t, "model", label+"-mk")+":"+model(label)+"}")
	}
	// The policies a provider needs, in agents.defaults.models (one key
	// per selected ref), or on a configured provider.
	policy := rapid.IntRange(0, 2).Draw(t, "policy")
	var defaultsMembers []string
	if defaults != "" {
		defaultsMembers = append(defaultsMembers, esc(t, "model", "dk")+":"+defaults)
	}
	if policy == 0 && len(refs) > 0 {
		seen := map[string]bool{}
		var keys []string
		for _, r := range refs {
			pr, ok := resolver.ParseRef(r)
			if !ok || seen[pr.Key()] {
				continue
			}
			seen[pr.Key()] = true
			keys = append(keys, fmt.Sprintf(`%q:{"agentRuntime":{"id":"openclaw"}}`, pr.Key()))
		}
		defaultsMembers = append(defaultsMembers, `"models":{`+strings.Join(keys, ",")+`}`)
	}
	if len(defaultsMembers) > 0 || rapid.Bool().Draw(t, "defaults-object") {
		agents = append(agents, esc(t, "defaults", "ak")+":{"+strings.Join(defaultsMembers, ",")+"}")
	}
	if len(entries) > 0 || rapid.Bool().Draw(t, "entries-object") {
		agents = append(agents, esc(t, "entries", "ek")+":{"+strings.Join(entries, ",")+"}")
	}
	if rapid.Bool().Draw(t, "agents-swap") && len(agents) == 2 {
		agents[0], agents[1] = agents[1], agents[0]
	}
	var top []string
	top = append(top, `"agents":{`+strings.Join(agents, ",")+`}`)
	// models.providers and plugins.entries, keys written as refs
	// normalize them or not.
	keyOf := func(label string) string {
		return rapid.SampledFrom([]string{provider, strings.ToUpper(provider[:1]) + provider[1:], " " + provider}).Draw(t, label)
	}
	var provs []string
	if policy == 1 || rapid.IntRange(0, 3).Draw(t, "configure") == 0 {
		rt := ""
		if policy == 1 {
			rt = `"agentRuntime":{"id":"openclaw"}`
		}
		provs = append(provs, esc(t, keyOf("prov-key"), "pk")+":{"+rt+"}")
	}
	if rapid.Bool().Draw(t, "other-provider") {
		provs = append(provs, `"elsewhere":{"baseUrl":"https://x"}`)
	}
	if len(provs) > 0 {
		top = append(top, `"models":{"providers":{`+strings.Join(provs, ",")+`}}`)
	}
	var plugs []string
	if rapid.IntRange(0, 3).Draw(t, "plugins") == 0 {
		plugs = append(plugs, esc(t, keyOf("plug-key"), "plk")+`:{}`)
	}
	if rapid.Bool().Draw(t, "other-plugin") {
		plugs = append(plugs, `"memory":{}`)
	}
	if len(plugs) > 0 {
		top = append(top, `"plugins":{"entries":{`+strings.Join(plugs, ",")+`}}`)
	}
	if rapid.Bool().Draw(t, "top-swap") {
		top[0], top[len(top)-1] = top[len(top)-1], top[0]
	}
	src := "{" + strings.Join(top, ",") + "}"
	doc, err := occkit.ParseDocument([]byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	primaries := []string{"", "bad", provider + "/gpt-5"}
	if len(refs) > 0 {
		primaries = append(primaries, refs[0], rapid.SampledFrom(refs).Draw(t, "primary"))
	}
	return doc, primaries
}

// TestCheckModelsReadsTheIndex: the check of the selected models made
// from the resolver's index tells what the walk of the document told,
// warning for warning, refusal for refusal, and the same primary's
// place, on Configurations that resolve.
func TestCheckModelsReadsTheIndex(t *testing.T) {
	resolved, findings := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		doc, primaries := genResolvingDocument(t)
		ok, n := checkAgainstWalk(t, doc, primaries)
		if ok {
			resolved++
			findings += n
		}
	})
	// The draws reach what is compared.
	if resolved < 20 || findings == 0 {
		t.Fatalf("%d documents resolved, %d findings: the generator misses the check", resolved, findings)
	}
}

// TestCheckModelsReadsTheIndexAnyShape: the same on agents of every
// shape (genAgents), beside a configured provider; most do not resolve,
// and those that do are compared.
func TestCheckModelsReadsTheIndexAnyShape(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		raw := genAgents(t)
		doc, err := occkit.ParseDocument([]byte(`{"agents":` + raw + `,"models":{"providers":{"openai":{"agentRuntime":{"id":"openclaw"}}}}}`))
		if err != nil {
			t.Skipf("a key written twice (once escaped): %v", err)
		}
		checkAgainstWalk(t, doc, []string{"openai/gpt-5", "anthropic/claude-opus-4", "p/m\"q", "bad", "x/y"})
	})
}
