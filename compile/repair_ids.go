package compile

import "strings"

// Retired model IDs doctor renames while it migrates a legacy ref to its
// canonical provider (CMP-3). The facts are OpenClaw 2026.9.6's built-in
// provider model-ID normalization, which doctor applies to every ref it
// migrates: `claude-cli/opus` becomes `anthropic/claude-opus-5`, not
// `anthropic/opus`. Refs already on a canonical provider are not renamed
// (doctor does not touch them either).

// retiredAnthropicIDs maps Anthropic short names (compared lower-cased) to
// current model IDs.
var retiredAnthropicIDs = map[string]string{
	"fable":      "claude-fable-5-1",
	"fable-5":    "claude-fable-5",
	"fable-5.1":  "claude-fable-5-1",
	"fable-5-1":  "claude-fable-5-1",
	"haiku":      "claude-haiku-4-5",
	"opus-5.5":   "claude-opus-5-5",
	"opus-5-5":   "claude-opus-5-5",
	"opus-5":     "claude-opus-5",
	"opus":       "claude-opus-5",
	"opus-4.8":   "claude-opus-4-8",
	"opus-4.7":   "claude-opus-4-7",
	"opus-4.6":   "claude-opus-4-6",
	"mythos-5":   "claude-mythos-5",
	"sonnet-5":   "claude-sonnet-5",
	"sonnet":     "claude-sonnet-5",
	"sonnet-4.6": "claude-sonnet-4-6",
}

// retiredGoogleIDs maps retired Gemini preview IDs (compared exactly) to
// current ones.
var retiredGoogleIDs = map[string]string{
	"gemini-3-pro":                  "gemini-3.1-pro-preview",
	"gemini-3-pro-preview":          "gemini-3.1-pro-preview",
	"gemini-3-flash":                "gemini-3-flash-preview",
	"gemini-3.1-pro":                "gemini-3.1-pro-preview",
	"gemini-3.1-flash-lite-preview": "gemini-3.1-flash-lite",
	"gemini-3.1-flash":              "gemini-3-flash-preview",
	"gemini-3.1-flash-preview":      "gemini-3-flash-preview",
	"gemma-4-26b":                   "gemma-4-26b-a4b-it",
}

// renamedModelID returns the current ID for a model ID migrated to provider.
func renamedModelID(provider, id string) string {
	switch provider {
	case "anthropic":
		if len(id) > len("anthropic/") && strings.EqualFold(id[:len("anthropic/")], "anthropic/") {
			id = id[len("anthropic/"):]
		}
		if to, ok := retiredAnthropicIDs[strings.ToLower(id)]; ok {
			return to
		}
	case "google":
		if rest, ok := strings.CutPrefix(id, "google/"); ok {
			return "google/" + renamedModelID(provider, rest)
		}
		if to, ok := retiredGoogleIDs[id]; ok {
			return to
		}
	}
	return id
}
