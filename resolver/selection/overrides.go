package selection

import (
	"math"
	"strings"
	"unicode"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// overrideScan collects the authored request overrides of a route
// (SEL-6, SEL-6a). Only paths are kept, never values.
type overrideScan struct {
	paths []occkit.Path
}

func (s *overrideScan) add(p occkit.Path) { s.paths = append(s.paths, p) }

// provider checks `models.providers.<p>`: non-empty headers, request and
// (filtered) params, a boolean authHeader, a numeric timeoutSeconds and a
// localService.
func (s *overrideScan) provider(v *object, at occkit.Path) {
	if !v.v.IsObject() {
		return
	}
	s.nonEmpty(v.get("headers"), at, "headers")
	s.nonEmpty(v.get("request"), at, "request")
	if p := v.get("params"); present(p) {
		s.params(p, at.Key("params"))
	}
	if a := v.get("authHeader"); a.IsBool() {
		s.add(at.Key("authHeader"))
	}
	if t := v.get("timeoutSeconds"); t.Type == gjson.Number {
		s.add(at.Key("timeoutSeconds"))
	}
	if l := v.get("localService"); l.Exists() && l.Type != gjson.Null && l.Type != gjson.False {
		s.add(at.Key("localService"))
	}
}

// rowFields are the members of a catalog row that can hold overrides:
// non-empty headers, (filtered) params and every compat key but the
// native reasoning capabilities ([overrideScan.rowField]).
var rowFields = []string{"headers", "params", "compat"}

// rowField checks the member name (one of rowFields), valued v, of the
// catalog row at at.
func (s *overrideScan) rowField(name string, v gjson.Result, at occkit.Path) {
	switch name {
	case "headers":
		s.nonEmpty(v, at, "headers")
	case "params":
		if present(v) {
			s.params(v, at.Key("params"))
		}
	case "compat":
		switch {
		case !v.Exists() || v.Type == gjson.Null:
		case !v.IsObject():
			s.add(at.Key("compat"))
		default:
			v.ForEach(func(k, val gjson.Result) bool {
				if !compatCapability(k.String(), val) {
					s.add(at.Key("compat").Key(k.String()))
				}
				return true
			})
		}
	}
}

// params checks a params object with the runtime controls filtered out
// (SEL-6a); any other key is an override.
func (s *overrideScan) params(v gjson.Result, at occkit.Path) {
	switch {
	case !v.Exists() || v.Type == gjson.Null:
	case !v.IsObject():
		s.add(at)
	default:
		v.ForEach(func(k, val gjson.Result) bool {
			if !runtimeControl(k.String(), val) {
				s.add(at.Key(k.String()))
			}
			return true
		})
	}
}

// hasParamOverride reports whether params (present) holds an override
// that [overrideScan.params] lists, without listing it.
func hasParamOverride(v gjson.Result) bool {
	if !v.IsObject() {
		return true
	}
	found := false
	v.ForEach(func(k, val gjson.Result) bool {
		found = !runtimeControl(k.String(), val)
		return !found
	})
	return found
}

// nonEmpty checks the member key of the object at at.
func (s *overrideScan) nonEmpty(v gjson.Result, at occkit.Path, key string) {
	switch {
	case !present(v):
	case v.IsObject() || v.IsArray():
		if hasMembers(v) {
			s.add(at.Key(key))
		}
	case v.Type == gjson.String && v.String() == "":
	default:
		s.add(at.Key(key))
	}
}

// present reports a value that is present and not null.
func present(v gjson.Result) bool { return v.Exists() && v.Type != gjson.Null }

func hasMembers(v gjson.Result) bool {
	found := false
	v.ForEach(func(_, _ gjson.Result) bool { found = true; return false })
	return found
}

// compatCapability reports the two compat entries that describe native
// reasoning capabilities rather than request behaviour (SEL-6):
// `supportsReasoningEffort: true` and a non-empty
// `supportedReasoningEfforts` drawn from the native effort levels.
func compatCapability(key string, v gjson.Result) bool {
	switch key {
	case "supportsReasoningEffort":
		return v.Type == gjson.True
	case "supportedReasoningEfforts":
		if !v.IsArray() {
			return false
		}
		list := v.Array()
		if len(list) == 0 {
			return false
		}
		for _, e := range list {
			if e.Type != gjson.String || !nativeEffort(e.String()) {
				return false
			}
		}
		return true
	}
	return false
}

func nativeEffort(s string) bool {
	switch s {
	case "minimal", "low", "medium", "high", "xhigh", "max", "ultra":
		return true
	}
	return false
}

// runtimeControl reports whether a params entry is a runtime control
// with a valid value (SEL-6, SEL-6a): seed 003 keeps native selection for
// controls "when their values are valid". The SPEC names the controls but
// not their values; occkit accepts what OpenClaw's isAgentRuntimeModelParam
// accepts:
//
//   - `thinking`: false, "disabled", "none", or a thinking level
//     ([thinkingLevel]); true is not one;
//   - `fastMode`/`fast_mode`: a boolean or a fast-mode word
//     ([fastModeWord]); a number is not one;
//   - the fast-mode cutoff `fastAutoOnSeconds`, `fastSeconds` and their
//     snake_case spellings: a positive integer.
//
// Any other entry, and a control with another value, is request behaviour.
func runtimeControl(key string, v gjson.Result) bool {
	switch key {
	case "thinking":
		if v.Type == gjson.False {
			return true
		}
		s := v.String()
		return v.Type == gjson.String && (s == "disabled" || s == "none" || thinkingLevel(s))
	case "fastMode", "fast_mode":
		return v.IsBool() || v.Type == gjson.String && fastModeWord(v.String())
	case "fastAutoOnSeconds", "fast_auto_on_seconds", "fastSeconds", "fast_seconds":
		return positiveInt(v)
	}
	return false
}

// controlKey reports whether key names a runtime control, whatever its
// value: [runtimeControl] is false for every other key.
func controlKey(key string) bool {
	switch key {
	case "thinking", "fastMode", "fast_mode", "fastAutoOnSeconds", "fast_auto_on_seconds", "fastSeconds", "fast_seconds":
		return true
	}
	return false
}

// positiveInt reports a JSON number whose value is an integer ≥ 1 (`2.0`
// and `1e3` too, as a JavaScript number reads them).
func positiveInt(v gjson.Result) bool {
	if v.Type != gjson.Number {
		return false
	}
	f := v.Float()
	return f >= 1 && !math.IsInf(f, 0) && f == math.Trunc(f)
}

// thinkingLevel reports a word OpenClaw reads as a thinking level
// (trimmed, case-insensitive; `-`, `_` and spaces ignored in the
// compound ones): off, none, on, enable(d), min(imal), low, think, think
// hard(er|est), mid, med(ium), harder, high, highest, ultrathink, max,
// ultra, xhigh, extra high, adaptive, auto.
func thinkingLevel(s string) bool {
	key := strings.ToLower(strings.TrimSpace(s))
	if key == "" {
		return false
	}
	collapsed := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, key)
	switch collapsed {
	case "adaptive", "auto", "max", "ultra", "xhigh", "extrahigh":
		return true
	}
	switch key {
	case "off", "none", "on", "enable", "enabled", "min", "minimal", "low", "thinkhard", "think-hard", "think_hard",
		"mid", "med", "medium", "thinkharder", "think-harder", "harder", "high", "ultrathink", "thinkhardest", "highest", "think":
		return true
	}
	return false
}

// fastModeWord reports a string OpenClaw reads as a fast-mode setting
// (trimmed, case-insensitive).
func fastModeWord(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "false", "no", "0", "disable", "disabled", "normal",
		"on", "true", "yes", "1", "enable", "enabled", "fast", "auto", "automatic":
		return true
	}
	return false
}
