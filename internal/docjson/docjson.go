// Package docjson reads an occkit.Document with gjson, for occkit's own
// parsers and hot paths. The exported API speaks occkit.Value, so users
// never need gjson; code inside the module that walks documents with gjson
// gets the same zero-copy view here, without a conversion per value.
package docjson

import (
	"unsafe"

	"github.com/occkit/occkit"
	"github.com/tidwall/gjson"
)

// Root is the whole document as a gjson value. It reads the document's own
// bytes (occkit.Document.String does not copy), so it costs no allocation.
func Root(d occkit.Document) gjson.Result { return gjson.Parse(d.String()) }

// Get is the value at p (Exists() is false when absent), read in place.
// It is occkit.Document.Get, which starts at p's root member (located
// once per document), as a gjson value.
func Get(d occkit.Document, p occkit.Path) gjson.Result {
	if p.IsRoot() {
		return Root(d)
	}
	r := gjson.Parse(d.Get(p).Raw())
	if r.Raw != "" {
		// As gjson.Get of the whole path: the value's offset in the
		// document (its Raw is a view of the document's bytes).
		s := d.String()
		r.Index = int(uintptr(unsafe.Pointer(unsafe.StringData(r.Raw))) - uintptr(unsafe.Pointer(unsafe.StringData(s))))
	}
	return r
}
