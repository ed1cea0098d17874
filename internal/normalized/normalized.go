// Package normalized hands the output of occkit's own transcoder
// (compile.Load) to package occkit as a Document without reading it again,
// and without a function in occkit's exported API that only code inside
// the module could call.
//
// Package occkit registers its constructor here in its init ([Register]);
// compile then calls [Document] with occkit.Document as the type argument.
// Any package that can name occkit.Document has imported occkit, so the
// constructor is always registered before Document can run.
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
