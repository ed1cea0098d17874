package adversarial_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/resolver"
)

// validJSON is a realistic Configuration: nested objects and arrays,
// escapes, non-ASCII text, every number form and every literal.
const validJSON = `{
  "agents": {
    "defaults": {
      "model": {"primary": "anthropic/claude-sonnet-4-6", "fallbacks": ["anthropic/claude-haiku-4-5"]},
      "models": {
        "anthropic/claude-sonnet-4-6": {"alias": "Sonnet \u00e9\"q\"", "agentRuntime": {"id": "openclaw"}, "params": {"temperature": 0.25, "maxTokens": 8e3}},
        "anthropic/claude-haiku-4-5": {"alias": "Haiku — 俳句", "agentRuntime": {"id": "openclaw"}}
      },
      "maxConcurrent": 8,
      "workspace": "/home/node/workspace"
    },
    "entries": {"main": {"tools": {"allow": ["read", "write"], "deny": []}, "sandbox": null}}
  },
  "models": {"providers": {"anthropic": {"baseUrl": "https://api.anthropic.com", "models": [{"id": "claude-sonnet-4-6", "reasoning": true, "cost": {"input": -0, "output": 1.5E-2}}]}}},
  "channels": {"slack": {"enabled": true, "token": "${SLACK_TOKEN}", "allow": [false, null, 1]}},
  "logging": {"level": "info"}
}
`

// validJSON5 is the same kind of document as people write it.
const validJSON5 = `// OpenClaw configuration
{
  agents: {
    defaults: {
      model: {primary: 'anthropic/claude-sonnet-4-6', fallbacks: ['anthropic/claude-haiku-4-5',],},
      models: {
        'anthropic/claude-sonnet-4-6': {alias: 'Sonnet \'s\' \x41', agentRuntime: {id: "openclaw"}, params: {temperature: .25, maxTokens: 0x1F40}},
        "anthropic/claude-haiku-4-5": {alias: "line \
continued", agentRuntime: {id: 'openclaw'}}, /* block
comment */
      },
      maxConcurrent: +8,
    },
    entries: {main: {}},
  },
  logging: {level: 'info'}, // trailing
}
`

// TestTruncationAtEveryOffset: every proper prefix of a valid
// Configuration is refused with a structured 400 (never a panic), or
// accepted only when it is itself the whole document (what was cut was
// trailing white space or a comment), through compile.Load and, for strict
// JSON, occkit.ParseDocument.
func TestTruncationAtEveryOffset(t *testing.T) {
	for _, src := range []struct{ name, text string }{{"json", validJSON}, {"json5", validJSON5}} {
		t.Run(src.name, func(t *testing.T) {
			full, err := compile.Load([]byte(src.text), compile.LoadOptions{})
			if err != nil {
				t.Fatalf("the full document does not load: %v", err)
			}
			if _, err := resolver.Resolve(full, resolver.Request{}); err != nil {
				t.Fatalf("the full document does not resolve: %v", err)
			}
			accepted := 0
			for n := 0; n < len(src.text); n++ {
				prefix := []byte(src.text[:n])
				doc, err := compile.Load(prefix, compile.LoadOptions{})
				if err == nil {
					accepted++
					if !doc.Equal(full) {
						t.Fatalf("prefix of %d bytes loads to a different document: %.80s", n, doc)
					}
				} else {
					truncated(t, n, err)
				}
				if src.name != "json" {
					continue
				}
				d, err := occkit.ParseDocument(prefix)
				if err == nil {
					if !bytes.Equal(occkit.Canonical(d), occkit.Canonical(full)) {
						t.Fatalf("ParseDocument of a %d-byte prefix gives a different document", n)
					}
				} else {
					truncated(t, n, err)
				}
			}
			// Exactly one proper prefix is whole: the one that cuts only the
			// final newline.
			if accepted != 1 {
				t.Errorf("%d prefixes accepted, want 1", accepted)
			}
		})
	}
}

func truncated(t *testing.T, n int, err error) {
	t.Helper()
	var e *occkit.Error
	if !errors.As(err, &e) {
		t.Fatalf("prefix of %d bytes: unstructured error %T", n, err)
	}
	// DOC-2 when the cut leaves a key equal to an earlier one ("model" of
	// "models"): the parser refuses the key before it reaches the end.
	if e.Code != occkit.CodeInvalidRequest || e.HTTPStatus() != 400 || e.Rule != "DOC-1" && e.Rule != "DOC-2" {
		t.Fatalf("prefix of %d bytes: got %d %s %q, want 400 INVALID_REQUEST DOC-1 or DOC-2", n, e.HTTPStatus(), e.Code, e.Rule)
	}
	clean(t, err.Error())
}
