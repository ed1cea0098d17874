package reference

import (
	"math"
	"math/big"
	"strconv"
)

// AppendNumber appends f in the form ECMAScript's Number::toString gives it,
// which RFC 8785 (JSON Canonicalization Scheme, section 3.2.2.3) adopts:
// the shortest decimal that reads back as f, written without exponent for
// magnitudes from 1e-6 up to but excluding 1e21 and as d.ddde±x otherwise;
// -0 is "0". f must be finite.
func AppendNumber(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0')
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var buf [32]byte
	// Shortest round-trip digits in scientific form: d[.ddd]e±xx.
	sci := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	e := 0
	for sci[e] != 'e' {
		e++
	}
	exp, _ := strconv.Atoi(string(sci[e+1:]))
	var digits [24]byte
	k := 0
	for _, c := range sci[:e] {
		if c != '.' {
			digits[k] = c
			k++
		}
	}
	d := digits[:k]
	n := exp + 1 // the decimal point sits after n digits
	switch {
	case k <= n && n <= 21:
		dst = append(dst, d...)
		for i := k; i < n; i++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, d[:n]...)
		dst = append(dst, '.')
		dst = append(dst, d[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for i := n; i < 0; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, d...)
	default:
		dst = append(dst, d[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}

// AppendCanonicalNumber appends the RFC 8785 form of the JSON number
// literal lit. It reports false, appending nothing, when lit is not a
// number or lies outside the range of an IEEE-754 double (it would read
// as Infinity). A literal too small to be distinguished from zero reads as
// 0, as it does in JavaScript.
func AppendCanonicalNumber(dst, lit []byte) ([]byte, bool) {
	if IsCanonicalNumber(lit) {
		return append(dst, lit...), true
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, false
	}
	return AppendNumber(dst, f), true
}

// IsCanonicalNumber reports whether the number literal lit is already its
// own RFC 8785 form, so that [AppendCanonicalNumber] would write it as it
// is: an optional minus, an integer part without a leading zero (or "0"
// alone), and optionally a fraction that does not end in 0, with at most
// 15 significant digits in all, no exponent and, for a magnitude below 1,
// at most five zeros after the point. A decimal of at most 15 significant
// digits is the only decimal of that many digits or fewer that reads back
// as its double (15 is DBL_DIG), so it is the shortest round trip
// ECMAScript writes, and in that range it writes it without an exponent
// (from 1e-6; 0.0000001 is 1e-7). "-0" is not: it is written 0. Anything
// else reports false, canonical or not, and takes the full conversion.
func IsCanonicalNumber(lit []byte) bool {
	s := lit
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || i > 15 || s[0] == '0' && i > 1 {
		return false
	}
	if i == len(s) {
		return !(s[0] == '0' && len(lit) > 1) // not -0
	}
	if s[i] != '.' || i+1 == len(s) || s[len(s)-1] == '0' {
		return false
	}
	frac := s[i+1:]
	for _, c := range frac {
		if !isDigit(c) {
			return false
		}
	}
	sig := i + len(frac)
	if s[0] == '0' {
		z := 0
		for frac[z] == '0' { // frac ends in a non-zero digit
			z++
		}
		if z > 5 {
			return false
		}
		sig = len(frac) - z
	}
	return sig <= 15
}

// hexFloat is the double nearest to the hexadecimal digits (no prefix, no
// sign, at most maxHexDigits significant ones); false when it is infinite.
func hexFloat(digits []byte) (float64, bool) {
	if len(digits) <= 13 {
		v, _ := strconv.ParseUint(string(digits), 16, 64)
		return float64(v), true
	}
	var b big.Int
	b.SetString(string(digits), 16)
	f, _ := new(big.Float).SetInt(&b).Float64()
	return f, !math.IsInf(f, 0)
}
