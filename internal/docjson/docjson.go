// Package docjson reads an occkit.Document with gjson, for occkit's own
// parsers and hot paths. The exported API speaks occkit.Value, so users
// never need gjson; code inside the module that walks documents with gjson
// gets the same zero-copy view here, without a conversion per value.
package docjson

import (
	"github.com/occkit/occkit"
	"github.com/tidwall/gjson"
)

// Root is the whole document as a gjson value. It reads the document's own
// bytes (occkit.Document.String does not copy), so it costs no allocation.
func Root(d occkit.Document) gjson.Result { return gjson.Parse(d.String()) }

// Get is the value at p (Exists() is false when absent), read in place.
func Get(d occkit.Document, p occkit.Path) gjson.Result {
	if p.IsRoot() {
		return Root(d)
	}
	return gjson.Get(d.String(), p.GJSON())
}
