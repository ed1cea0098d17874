package admission

import (
	"github.com/occkit/occkit"
)

// AUTH-1: Agent.harnessAuth is the sole model-auth selector. These pure
// functions give the stored value after a create or an update, and the
// deployment precondition.

// CreateHarnessAuth is the value an Agent create stores: the parsed binding,
// or the zero Binding (null) when raw is absent (nil or empty) or null.
func CreateHarnessAuth(raw []byte) (occkit.Binding, error) {
	return ParseBinding(raw, bindingPath)
}

// UpdateHarnessAuth is the value an Agent update stores: an update that
// omits harnessAuth preserves stored, an explicit null clears it, and any
// other value replaces it after the shape check (AUTH-4a).
func UpdateHarnessAuth(stored occkit.Binding, raw []byte) (occkit.Binding, error) {
	if len(raw) == 0 {
		return stored, nil
	}
	return ParseBinding(raw, bindingPath)
}

// RequireHarnessAuth is the deployment precondition: an Agent without a
// binding cannot deploy (409 RESOURCE_CONFLICT).
func RequireHarnessAuth(b occkit.Binding) error {
	if b.IsZero() {
		return occkit.Conflict("AUTH-1", bindingPath, "deployment needs a harnessAuth binding")
	}
	return nil
}
