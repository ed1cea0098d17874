package jsonwalk

// The scanner reads JSON text in place. Every function takes the text and
// an offset and returns an offset; none allocates. Input that is not JSON
// never makes them read out of bounds: they return len(s) or an offset
// the caller's next check refuses.

// ws skips JSON whitespace from i.
func ws(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// str scans the string literal at i (s[i] is '"') and returns the offset
// after its closing quote and whether it holds an escape.
func str(s string, i int) (end int, escaped bool) {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '"':
			return i + 1, escaped
		case '\\':
			escaped = true
			i++
		}
	}
	return len(s), escaped
}

// num scans the number literal at i.
func num(s string, i int) int {
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
		default:
			return i
		}
	}
	return i
}

// skip returns the offset after the value at i, reading each byte once.
func skip(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	switch s[i] {
	case '"':
		end, _ := str(s, i)
		return end
	case '{', '[':
	case 't', 'n':
		return min(i+4, len(s))
	case 'f':
		return min(i+5, len(s))
	default:
		if end := num(s, i); end > i {
			return end
		}
		return len(s)
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

// Skip returns the offset after the value at i (leading whitespace
// skipped), reading each byte once.
func Skip(s string, i int) int { return skip(s, ws(s, i)) }

// Members calls fn for each member of the object at i (s[i] is '{', after
// any whitespace) with its key literal (quotes included), whether the key
// holds an escape, and the offset of its value; fn returns the offset
// after the value, or -1 to stop. Members returns the offset after the
// object, or -1 when fn stopped or the text is not an object.
func Members(s string, i int, fn func(key string, escaped bool, at int) int) int {
	i = ws(s, i)
	if i >= len(s) || s[i] != '{' {
		return -1
	}
	i = ws(s, i+1)
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	for i < len(s) && s[i] == '"' {
		ke, esc := str(s, i)
		key := s[i:ke]
		i = ws(s, ke)
		if i >= len(s) || s[i] != ':' {
			return -1
		}
		end := fn(key, esc, ws(s, i+1))
		if end < 0 {
			return -1
		}
		i = ws(s, end)
		if i >= len(s) {
			return -1
		}
		switch s[i] {
		case ',':
			i = ws(s, i+1)
		case '}':
			return i + 1
		default:
			return -1
		}
	}
	return -1
}

// Elements calls fn for each element of the array at i (s[i] is '[',
// after any whitespace) with its index and offset; fn returns the offset
// after the element, or -1 to stop. Elements returns the offset after the
// array, or -1 when fn stopped or the text is not an array.
func Elements(s string, i int, fn func(index, at int) int) int {
	i = ws(s, i)
	if i >= len(s) || s[i] != '[' {
		return -1
	}
	i = ws(s, i+1)
	if i < len(s) && s[i] == ']' {
		return i + 1
	}
	for n := 0; i < len(s); n++ {
		end := fn(n, i)
		if end < 0 {
			return -1
		}
		i = ws(s, end)
		if i >= len(s) {
			return -1
		}
		switch s[i] {
		case ',':
			i = ws(s, i+1)
		case ']':
			return i + 1
		default:
			return -1
		}
	}
	return -1
}
