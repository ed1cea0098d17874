// Package globals holds the check that keeps occkit free of global mutable
// state: [Check] type-checks a package and reports every write to one of
// its package-level variables after the declaration. Its test runs the
// check over every non-test file of the root module's packages and fails
// on any write that is not on a short allow-list, each entry with a reason.
//
// # What counts as a write
//
// An assignment to the variable or through it (v = x, v.f = x, v[k] = x,
// *v = x), ++ and --, a range loop that assigns it, taking its address
// (&v, &v.f), calling a pointer-receiver method on a variable that is not
// itself a pointer (an implicit &v: a sync.Mutex or sync.Once global), and
// handing it as the destination to copy, clear, delete or a known in-place
// mutator such as sort.Strings or slices.Sort. A write inside an init
// function counts like any other.
//
// # What it does not see
//
// Mutation through a callee outside that list (a helper that appends to
// a global slice it was given), through a pointer-typed global's methods
// (a *regexp.Regexp global is read through pointer methods by design), or
// through reflection and unsafe.
package globals
