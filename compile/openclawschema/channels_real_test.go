package openclawschema

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/tiers"
)

// TestChannelIDsReal compares the check's channel ids with the gateway's
// own validation (the CLI's, testdata/cli-oracle.mjs) of each installed
// release: for every channel key of generated documents (the release's
// channels, typos and case variants of them, unrelated and padded keys,
// with and without a plugin of that id declared, plugin aliases), the
// check refuses the key at channels.<key> exactly when OpenClaw reports
// "unknown channel id" for it.
func TestChannelIDsReal(t *testing.T) {
	installs, run := openclawDirs(t, tiers.ChannelIDs)
	for _, in := range installs {
		t.Run(in.version, func(t *testing.T) {
			v, err := ForRelease(in.version)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(32, 7))
			known := v.Contract().Channels()
			var docs [][]byte
			var keys []string
			for range 300 {
				k := channelKey(rng, known)
				doc := map[string]any{"channels": map[string]any{k: map[string]any{}}}
				id := strings.TrimSpace(k)
				switch rng.IntN(6) {
				case 0:
					doc["plugins"] = map[string]any{"entries": map[string]any{strings.ToUpper(id): map[string]any{}}}
				case 1:
					doc["plugins"] = map[string]any{"allow": []any{" " + id + " "}}
				case 2:
					doc["plugins"] = map[string]any{"entries": map[string]any{id + "x": map[string]any{}}}
				}
				b, err := json.Marshal(doc)
				if err != nil {
					t.Fatal(err)
				}
				docs = append(docs, b)
				keys = append(keys, k)
			}
			gw := cliOracle(t, in.dir, docs)
			refused := 0
			for i, b := range docs {
				doc, err := occkit.ParseDocument(b)
				if err != nil {
					t.Fatal(err)
				}
				// The channel-id refusals alone: a section's own schema may
				// refuse at channels.<key> too (a union none of whose shapes
				// fits).
				ours := false
				for _, e := range occkit.Errors(occkit.Join(v.Contract().channelIssues(reading{src: doc.String()})...)) {
					ours = ours || e.Path.Equal(occkit.NewPath("channels", keys[i]))
				}
				if (len(occkit.Errors(v.Validate(doc))) == 0) && ours {
					t.Fatalf("Validate accepts %s, which the channel check refuses", b)
				}
				theirs := false
				for _, is := range gw[i].Issues {
					theirs = theirs || is.Message == "unknown channel id: "+strings.TrimFunc(keys[i], isJSSpace)
				}
				if theirs {
					refused++
				}
				if ours != theirs {
					t.Errorf("channel key %q in %s: the check refuses it %v, OpenClaw %v (%+v)", keys[i], b, ours, theirs, gw[i].Issues)
				}
			}
			if refused < len(docs)/5 || refused > len(docs)*4/5 {
				t.Errorf("the generator is unbalanced: OpenClaw refuses %d of %d channel keys", refused, len(docs))
			}
			t.Logf("%d channel keys, %d refused by OpenClaw as unknown", len(docs), refused)
			run.Done(len(docs))
		})
	}
}

// channelKey draws a channel key: a known channel, a typo or case
// variant of one, an unrelated word, padded or not, or a plugin alias.
func channelKey(rng *rand.Rand, known []string) string {
	k := known[rng.IntN(len(known))]
	switch rng.IntN(8) {
	case 0, 1:
	case 2, 3:
		k = mangle(rng, k)
	case 4:
		k = strings.ToUpper(k[:1]) + k[1:]
	case 5:
		k = []string{"main", "salck", "X_TOKEN", "qa-channel", "web", "minimax-portal", "google-gemini-cli", "openai"}[rng.IntN(8)]
	case 6:
		k = " " + k + "\t"
	default:
		k = fmt.Sprintf("%s-%d", k, rng.IntN(9))
	}
	if slices.Contains(channelSettings, strings.TrimSpace(k)) {
		return "salck"
	}
	return k
}
