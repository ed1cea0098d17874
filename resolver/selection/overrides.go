package selection

import (
	"strings"

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
func (s *overrideScan) provider(v object, at occkit.Path) {
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

// row checks a catalog row: non-empty headers, (filtered) params and every
// compat key but the native reasoning capabilities.
func (s *overrideScan) row(v gjson.Result, at occkit.Path) {
	if !v.IsObject() {
		return
	}
	s.nonEmpty(v.Get("headers"), at, "headers")
	if p := v.Get("params"); present(p) {
		s.params(p, at.Key("params"))
	}
	c := v.Get("compat")
	switch {
	case !c.Exists() || c.Type == gjson.Null:
	case !c.IsObject():
		s.add(at.Key("compat"))
	default:
		c.ForEach(func(k, val gjson.Result) bool {
			if !compatCapability(k.String(), val) {
				s.add(at.Key("compat").Key(k.String()))
			}
			return true
		})
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

// runtimeControl reports whether a params entry is a typed runtime
// control with a valid value (SEL-6): `thinking` (a thinking level or a
// boolean), `fastMode`/`fast_mode` (a boolean, or a positive integer of
// seconds), and the fast-mode cutoff in seconds (`fastModeCutoffSeconds`
// and its spellings, a positive integer). An invalid value is request
// behaviour.
func runtimeControl(key string, v gjson.Result) bool {
	switch key {
	case "thinking":
		if v.IsBool() {
			return true
		}
		return v.Type == gjson.String && thinkingLevel(strings.ToLower(strings.TrimSpace(v.String())))
	case "fastMode", "fast_mode":
		return v.IsBool() || positiveInt(v)
	case "fastModeCutoff", "fast_mode_cutoff", "fastModeCutoffSeconds", "fast_mode_cutoff_seconds",
		"fastModeSeconds", "fast_mode_seconds", "fastSeconds", "fast_seconds":
		return positiveInt(v)
	}
	return false
}

// positiveInt reports a JSON integer literal ≥ 1.
func positiveInt(v gjson.Result) bool {
	if v.Type != gjson.Number || strings.ContainsAny(v.Raw, ".eE-") {
		return false
	}
	f := v.Float()
	return f >= 1 && f <= 1<<53
}

func thinkingLevel(s string) bool {
	switch s {
	case "off", "minimal", "low", "medium", "high", "xhigh", "max", "ultra", "adaptive":
		return true
	}
	return false
}
