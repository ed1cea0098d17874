package jsonwalk

// skipBytewise is skip as it was before it read eight bytes a step: the
// oracle the word-wise skip is compared with. It moves through a
// container byte by byte, a string literal by str (strPlain's scan). The
// other scalars skip reads as it always did.
func skipBytewise(s string, i int) int {
	switch {
	case i >= len(s) || s[i] != '"' && s[i] != '{' && s[i] != '[':
		return skip(s, i)
	case s[i] == '"':
		end, _ := str(s, i)
		return end
	}
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			i, _ = str(s, i)
			i--
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}
