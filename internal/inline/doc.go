// Package inline holds [Stack], a stack whose first elements live in the
// value itself.
//
// A walk that keeps its steps in a slice of a local array loses the
// array to the heap as soon as it stores anything through the struct
// that holds the slice (Go's escape analysis reads all the pointers of
// a struct as one: f.steps = append(f.steps, …) or f.found = append(…)
// through a pointer makes every value the struct points at escape). A
// Stack held by value in that struct holds the first steps without a
// pointer, so that a walk a few steps deep, on its caller's stack,
// allocates nothing for them; the steps beyond those go to a slice.
package inline
