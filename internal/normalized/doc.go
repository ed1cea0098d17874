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
