package admission

import (
	"strconv"
	"unicode/utf8"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
)

// canonicalRecord writes the canonical form (RFC 8785, as
// [occkit.Canonical] writes it) of the record [Revision.record] builds
// without its digest, with the document left out: it returns the bytes
// before the document (ending in `"configuration":`) and after it, not ok
// only when the binding's JSON does not parse (it always does). It is
// what canonicalizing the marshalled record gives, written directly:
//
//   - members in key order (every key is ASCII, so byte order is the
//     UTF-16 order), omitting what the record's omitempty tags omit;
//   - strings as encoding/json marshals them (each byte that is not valid
//     UTF-8 becomes U+FFFD) and then with the fewest escapes;
//   - integers as the double they denote, as ECMAScript writes it;
//   - harnessAuth canonicalized from the binding's JSON.
//
// TestCanonicalRecordMatchesMarshal checks it against that computation.
func (r *Revision) canonicalRecord(dst []byte) (before, after []byte, ok bool) {
	b := dst
	b = append(b, '{')
	if !r.account.IsZero() {
		a := r.account
		b = append(b, `"account":{"backendId":`...)
		b = appendRecordString(b, a.BackendID)
		b = append(b, `,"credential":`...)
		b = appendRef(b, a.Credential)
		b = append(b, `,"driverId":`...)
		b = appendRecordString(b, a.DriverID)
		b = append(b, `,"workspaceId":`...)
		b = appendRecordString(b, a.WorkspaceID)
		b = append(b, "},"...)
	}
	b = append(b, `"agentId":`...)
	b = appendRecordString(b, r.agentID)
	b = append(b, `,"compute":{"id":`...)
	b = appendRecordString(b, r.compute.ID)
	b = append(b, `,"kind":`...)
	b = appendRecordString(b, string(r.compute.Kind))
	b = append(b, `},"configuration":`...)
	split := len(b)
	b = append(b, `,"fallbacks":[`...)
	for i, f := range r.fallbacks {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendRecordString(b, f)
	}
	b = append(b, `],"harness":{"id":`...)
	b = appendRecordString(b, string(r.harness.ID))
	b = append(b, `,"mode":`...)
	b = appendRecordString(b, string(r.mode))
	b = append(b, `,"version":`...)
	b = appendRecordString(b, r.harness.Version)
	b = append(b, `},"harnessAuth":`...)
	// The binding is written in place; one with a string that is not
	// plain (appendPlainBinding wrote nothing) takes the long way.
	if b, ok = appendPlainBinding(b, r.auth); !ok {
		doc, err := occkit.ParseDocument(r.auth.JSON())
		if err != nil {
			return nil, nil, false
		}
		b = append(b, occkit.Canonical(doc)...)
	}
	b = append(b, `,"logging":{"level":`...)
	b = appendRecordString(b, string(r.level))
	b = append(b, `,"ownership":`...)
	b = appendRecordString(b, string(r.ownership))
	b = append(b, '}')
	if r.namespace != "" {
		b = append(b, `,"namespaceId":`...)
		b = appendRecordString(b, r.namespace)
	}
	if r.openclawSchema != "" {
		b = append(b, `,"openclawSchema":`...)
		b = appendRecordString(b, r.openclawSchema)
	}
	b = append(b, `,"primary":`...)
	b = appendRecordString(b, r.primary)
	p := r.projection
	b = append(b, `,"projection":{`...)
	if p.EgressProxy {
		b = append(b, `"egressProxy":true,`...)
	}
	b = append(b, `"gateway":`...)
	b = appendEnv(b, p.Gateway)
	b = append(b, `,"harness":`...)
	b = appendEnv(b, p.Harness)
	if p.HostManaged {
		b = append(b, `,"hostManaged":true`...)
	}
	if p.StdinLogin {
		b = append(b, `,"stdinLogin":true`...)
	}
	b = append(b, '}')
	if r.sandboxDriverID != "" {
		b = append(b, `,"sandboxDriverId":`...)
		b = appendRecordString(b, r.sandboxDriverID)
	}
	if len(r.secretBindings) > 0 {
		b = append(b, `,"secretBindings":[`...)
		for i, s := range r.secretBindings {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"env":`...)
			b = appendRecordString(b, s.Env)
			b = append(b, `,"source":`...)
			b = appendRef(b, s.Source)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"source":{"generation":`...)
	b = appendRecordInt(b, r.source.Generation)
	b = append(b, `,"id":`...)
	b = appendRecordString(b, r.source.ID)
	b = append(b, `},"version":`...)
	b = appendRecordInt(b, recordVersion)
	b = append(b, '}')
	return b[:split], b[split:], true
}

// appendRef writes a refRecord's canonical form.
func appendRef(b []byte, s occkit.SourceRef) []byte {
	b = append(b, `{"id":`...)
	b = appendRecordString(b, s.ID)
	b = append(b, `,"kind":`...)
	b = appendRecordString(b, string(s.Kind))
	b = append(b, `,"namespaceId":`...)
	b = appendRecordString(b, s.NamespaceID)
	return append(b, '}')
}

// appendEnv writes a list of envRecords' canonical form.
func appendEnv(b []byte, vs []occkit.EnvVar) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		if v.From != (occkit.SourceRef{}) {
			b = append(b, `"from":`...)
			b = appendRef(b, v.From)
			b = append(b, ',')
		}
		b = append(b, `"name":`...)
		b = appendRecordString(b, v.Name)
		if v.Placeholder {
			b = append(b, `,"placeholder":true`...)
		}
		if v.Value != "" {
			b = append(b, `,"value":`...)
			b = appendRecordString(b, v.Value)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendPlainBinding writes the canonical form of x's JSON
// ([occkit.Binding.JSON], whose keys are in canonical order) when each of
// its strings is plain (see plainRecordString), and reports whether it
// did; when it did not, b is returned as it was, and the binding takes
// the long way: its JSON, parsed and canonicalized.
func appendPlainBinding(b []byte, x occkit.Binding) ([]byte, bool) {
	switch x.Method {
	case "":
		return append(b, "null"...), true
	case occkit.MethodAPIKey, occkit.MethodCodexPAT:
		s := x.Source
		if !plainRecordString(string(x.Method)) || !plainRecordString(s.ID) || !plainRecordString(string(s.Kind)) || !plainRecordString(s.NamespaceID) {
			return b, false
		}
		b = append(b, `{"method":`...)
		b = appendRecordString(b, string(x.Method))
		b = append(b, `,"source":{"id":`...)
		b = appendRecordString(b, s.ID)
		b = append(b, `,"kind":`...)
		b = appendRecordString(b, string(s.Kind))
		b = append(b, `,"namespaceId":`...)
		b = appendRecordString(b, s.NamespaceID)
		return append(b, "}}"...), true
	case occkit.MethodCredentialSource:
		if !plainRecordString(x.SourceID) || !plainRecordString(string(x.SourceType)) {
			return b, false
		}
		b = append(b, `{"method":"credential_source","sourceId":`...)
		b = appendRecordString(b, x.SourceID)
		b = append(b, `,"sourceType":`...)
		b = appendRecordString(b, string(x.SourceType))
		return append(b, '}'), true
	}
	if !plainRecordString(string(x.Method)) {
		return b, false
	}
	b = append(b, `{"method":`...)
	b = appendRecordString(b, string(x.Method))
	return append(b, '}'), true
}

// plainRecordString reports whether s is printable ASCII without a quote
// or a backslash (DEL included). It reads eight bytes at a time, the last
// eight of a string of eight or more overlapping the ones before: the
// record's strings (model IDs, ids, names) are most often that long.
func plainRecordString(s string) bool {
	if len(s) < 8 {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
				return false
			}
		}
		return true
	}
	for i := 0; i+8 < len(s); i += 8 {
		if !plainWord(load64(s[i : i+8])) {
			return false
		}
	}
	return plainWord(load64(s[len(s)-8:]))
}

// plainWord reports whether each byte of x is printable ASCII other than
// a quote or a backslash. Each test sets the top bit of the bytes it
// finds (and maybe of bytes above them, which only matters when one is
// found): a top bit set already, a byte below 0x20 (its borrow), a quote
// or a backslash (the byte that is zero after the xor).
func plainWord(x uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	q, b := x^(lo*'"'), x^(lo*'\\')
	return (x|(x-lo*0x20)|(q-lo)&^q|(b-lo)&^b)&hi == 0
}

// load64 is the eight bytes of s as a little-endian integer, read in
// one load (the compiler combines the bytes' loads).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// appendRecordInt writes n as ECMAScript writes the double it denotes.
func appendRecordInt(b []byte, n int64) []byte {
	var num [24]byte
	s := strconv.AppendInt(num[:0], n, 10)
	if out, ok := json5.AppendCanonicalNumber(b, s); ok {
		return out
	}
	return append(b, s...)
}

// appendRecordString writes s as canonicalizing its encoding/json form
// gives: each byte that is not valid UTF-8 is U+FFFD; '"', '\\' and
// control characters are escaped (\b \f \n \r \t, else \u00xx), all else
// is written as it is.
func appendRecordString(b []byte, s string) []byte {
	if plainRecordString(s) {
		// Its own canonical form (model ids, ids, names): as it is.
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
		i++
	}
	return append(b, '"')
}
