package occkit

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/tidwall/gjson"
)

func compactJSON(dst *bytes.Buffer, src []byte) error { return json.Compact(dst, src) }

// Canonical returns the canonical form of d used for digests and frozen
// revisions: compact JSON with the members of every object sorted by key
// (byte order) and every number, string and literal kept exactly as written.
// Two documents that differ only in key order have the same canonical bytes.
func Canonical(d Document) []byte {
	var b bytes.Buffer
	writeCanonical(&b, d.Root())
	return b.Bytes()
}

// CanonicalDigest is the hex SHA-256 of [Canonical].
func CanonicalDigest(d Document) string {
	return Document{raw: Canonical(d)}.Digest()
}

func writeCanonical(b *bytes.Buffer, v gjson.Result) {
	switch {
	case v.IsObject():
		type member struct {
			key string
			val gjson.Result
		}
		var ms []member
		v.ForEach(func(k, val gjson.Result) bool {
			ms = append(ms, member{k.String(), val})
			return true
		})
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].key < ms[j].key })
		b.WriteByte('{')
		for i, m := range ms {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(gjson.AppendJSONString(nil, m.key))
			b.WriteByte(':')
			writeCanonical(b, m.val)
		}
		b.WriteByte('}')
	case v.IsArray():
		b.WriteByte('[')
		i := 0
		v.ForEach(func(_, val gjson.Result) bool {
			if i > 0 {
				b.WriteByte(',')
			}
			i++
			writeCanonical(b, val)
			return true
		})
		b.WriteByte(']')
	case v.Type == gjson.String:
		b.Write(gjson.AppendJSONString(nil, v.String()))
	default:
		b.WriteString(v.Raw)
	}
}
