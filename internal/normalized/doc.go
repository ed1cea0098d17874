// Package normalized hands the output of occkit's own transcoder
// (compile.Load) to package occkit as a Document without reading it again,
// and without a function in occkit's exported API that only code inside
// the module could call.
//
// Package occkit registers its constructor here in its init ([Register]);
// compile then calls [Document] with occkit.Document as the type argument.
// Any package that can name occkit.Document has imported occkit, so the
// constructor is always registered before Document can run.
//
// The places of the root object's members the transcoder wrote down
// ([json5.Normalized.Members]) go with the bytes: the Document builds
// its root index from them at its first lookup, without a pass over the
// document. They exist only inside a json5.Normalized, made with its
// bytes, so a loader that changes the bytes afterwards cannot carry them
// onto other bytes: a merge of includes, normalized again, has places of
// its own; a substituted document, read with ParseDocument, has none.
package normalized
