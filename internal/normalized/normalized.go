package normalized

import "github.com/occkit/occkit/internal/json5"

// document is the constructor package occkit registered: a
// func(json5.Normalized) occkit.Document, held untyped because this
// package cannot import occkit (occkit imports it).
var document any

// Register records package occkit's constructor. Only occkit's init calls
// it.
func Register[D any](f func(json5.Normalized) D) { document = f }

// Document is the document of n as the registered constructor builds it:
// Document[occkit.Document](n). The transcoder refused everything
// occkit.ParseDocument refuses and wrote the rest compact, so n is taken as
// it is; the zero Normalized is the empty object.
func Document[D any](n json5.Normalized) D {
	return document.(func(json5.Normalized) D)(n)
}
