package inline

// Stack is a stack of T whose first sixteen elements live in it; the zero
// Stack is empty. Hold it by value in the struct a walk works with.
type Stack[T any] struct {
	n     int
	first [16]T
	rest  []T
}

// Len is the number of elements.
func (s *Stack[T]) Len() int { return s.n }

// Push adds v on top.
func (s *Stack[T]) Push(v T) {
	if s.n < len(s.first) {
		s.first[s.n] = v
	} else {
		s.rest = append(s.rest, v)
	}
	s.n++
}

// Pop takes the top element away; the stack must not be empty.
func (s *Stack[T]) Pop() {
	if s.n--; s.n >= len(s.first) {
		s.rest = s.rest[:len(s.rest)-1]
	}
}

// Reset empties the stack, keeping the room it has.
func (s *Stack[T]) Reset() { s.n, s.rest = 0, s.rest[:0] }

// At is the element i from the bottom (0 <= i < Len).
func (s *Stack[T]) At(i int) T {
	if i < len(s.first) {
		return s.first[i]
	}
	return s.rest[i-len(s.first)]
}

// All is the elements from the bottom up, in one slice: a view of the
// stack's own room while they fit in it (valid until the next Push,
// Pop or Reset), else a copy.
func (s *Stack[T]) All() []T {
	if s.n <= len(s.first) {
		return s.first[:s.n]
	}
	return append(s.first[:len(s.first):len(s.first)], s.rest...)
}
