package probe

import (
	"encoding/json"

	"github.com/tidwall/gjson"
)

// validJSON reports whether b is one valid JSON value. Probe output is
// untrusted: encoding/json's validator, a loop with a 10,000-level bound,
// runs first, because gjson's recurses once per nesting level and a long
// run of '[' would exhaust the stack (a fatal error, not a panic).
func validJSON(b []byte) bool { return json.Valid(b) && gjson.ValidBytes(b) }
