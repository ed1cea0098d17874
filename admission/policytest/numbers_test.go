package policytest

import (
	"encoding/json"
	"testing"
)

// Numbers compare as the doubles they denote, in time linear in their
// spelling, and a number past the double range by its text.
func TestDiffJSONNumbers(t *testing.T) {
	tests := []struct {
		want, got string
		same      bool
	}{
		{"1", "1.0", true},
		{"1", "1e0", true},
		{"9007199254740993", "9007199254740992", true}, // one double
		{"0", "1e-1000000", true},                      // an underflow is zero
		{"0", "-1e-1000000", true},
		{"1e400", "1e400", true}, // past the range: by text
		{"1e400", "1e401", false},
		{"1.5", "1.25", false},
		{"0", "5e-324", false}, // the smallest subnormal is not zero
	}
	for _, tt := range tests {
		diff := diffJSON(json.RawMessage(`{"n":`+tt.want+`}`), json.RawMessage(`{"n":`+tt.got+`}`))
		if (diff == "") != tt.same {
			t.Errorf("diffJSON(%s, %s) = %q, want same %v", tt.want, tt.got, diff, tt.same)
		}
	}
}
