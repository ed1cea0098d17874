package resolver

import "unsafe"

// strRef is a string the index holds without a pointer: a span of the
// document's text (most keys and IDs are read in place), or, for one
// that is not (decoded from escapes), its place in a strTable's spill
// list. Per-model entries hold strRefs, so the chunks that store them
// are pointer-free: the garbage collector neither scans them nor pays
// write barriers when they are filled.
type strRef struct {
	at uint32 // offset in text, or index in spill when n < 0
	n  int32  // length in text; -1: spilled
}

// strTable resolves the strRefs of one catalog or provider: the
// document's text and the strings that are not spans of it.
type strTable struct {
	text  string
	spill []string
}

// put returns the strRef of s: a span when s lies in t.text's memory.
func (t *strTable) put(s string) strRef {
	if len(s) == 0 {
		return strRef{}
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(t.text)))
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if len(t.text) > 0 && p >= base && p+uintptr(len(s)) <= base+uintptr(len(t.text)) && p-base <= 1<<31 {
		return strRef{at: uint32(p - base), n: int32(len(s))}
	}
	t.spill = append(t.spill, s)
	return strRef{at: uint32(len(t.spill) - 1), n: -1}
}

// span is put(t.text[off:off+n]), the strRef of a span of the text
// told by its place, without comparing pointers.
func (t *strTable) span(off, n int) strRef {
	if n == 0 {
		return strRef{}
	}
	if off <= 1<<31 {
		return strRef{at: uint32(off), n: int32(n)}
	}
	return t.put(t.text[off : off+n])
}

// get is the string r refers to.
func (t *strTable) get(r strRef) string {
	if r.n < 0 {
		return t.spill[r.at]
	}
	return t.text[r.at : r.at+uint32(r.n)]
}
