package resolver

import (
	"math/bits"

	"github.com/occkit/occkit/internal/jsonwalk"
)

// This file holds what the index's per-model loops read beside
// jsonwalk's steps ([jsonwalk.Open], [jsonwalk.Key], [jsonwalk.Next],
// which they take one at a time rather than through [jsonwalk.Members]
// and [jsonwalk.Elements], making no call through a closure per member):
// the one-pass reading of a literal that is a plain ref (refLit) and the
// keys matched as constants (keyLitID, keyLitRuntime).

// colonAt is [jsonwalk.Key] of the key literal s[i:end], read already:
// the colon after it.
func colonAt(s string, i, end int, escaped bool) (lit string, esc bool, value int) {
	j := jsonwalk.WS(s, end)
	if j >= len(s) || s[j] != ':' {
		return "", false, -1
	}
	return s[i:end], escaped, jsonwalk.WS(s, j+1)
}

// Masks of a word of eight bytes (SWAR), as jsonwalk reads them.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// refLitOn: when false, refLit reads no literal, so every one takes the
// general reading (the oracle of TestRefLitMatchesGeneral and of
// TestFastPathsPrepareAlike).
var refLitOn = true

// refLitScan reads the string literal at s[i] in one pass when it is a
// ref as nearly every one is written ([plainRef]): no escape, printable
// ASCII without a space, a `!` or an `@`, a slash neither first nor last
// and no upper-case letter before it. It returns the offset after the
// literal and the place of the first slash in its text, or -1 and -1
// for any other literal or one within eight bytes of the end of s (left
// to the general reading). For a literal it reads, what
// [jsonwalk.StringEnd], [decodeJS] and [ParseRef] make of it is known
// without them (TestRefLitMatchesGeneral): it ends at end, holds no
// escape, its text s[i+1:end-1] is its own key (the ref's Key(), the
// ref's String()), and the ref's provider and ID are that text before
// and after slash.
//
// Its bytes are read eight a step. In each word the first byte below
// 0x23 (a control, a space, `!` or the closing quote), of a wider rune,
// `@` or a backslash ends the literal's plain bytes: the literal is read
// here only when that byte is its closing quote. Only the lowest of those
// bytes need be found exactly (matches), so the search costs a few
// operations a word; before the first slash, upper-case letters are
// looked for too.
func refLitScan(s string, i int) (end, slash int) {
	if !refLitOn || i < 0 || i >= len(s) || s[i] != '"' {
		return -1, -1
	}
	slash = -1
	for j := i + 1; j <= len(s)-8; j += 8 {
		x := jsonwalk.Word(s, j)
		low := x &^ highBits
		// stop's lowest bit is the high bit of the first byte that ends
		// the plain bytes (bits above it may be set by borrows).
		stop := (x|^(low+(0x80-0x23)*lowBits))&highBits | jsonwalk.Matches(x, '@') | jsonwalk.Matches(x, '\\')
		stop &= -stop
		if slash < 0 {
			// in has the high bit of each byte before the stop.
			in := (stop - 1) & highBits
			// The bytes before the first slash hold no upper-case letter.
			upper := jsonwalk.Upper(x)
			if sl := jsonwalk.Matches(x, '/') & in; sl != 0 {
				sl &= -sl
				slash = j - i - 1 + bits.TrailingZeros64(sl)>>3
				in = (sl - 1) & highBits
			}
			if upper&in != 0 {
				return -1, -1
			}
		}
		if stop == 0 {
			continue
		}
		at := j + bits.TrailingZeros64(stop)>>3
		// The literal ends at a quote, its text is not empty, and the
		// slash is neither its first byte nor its last.
		if s[at] != '"' || slash <= 0 || s[at-1] == '/' {
			return -1, -1
		}
		return at + 1, slash
	}
	return -1, -1
}

// keyLitOn: when false, keyLitID and keyLitRuntime match nothing, so
// every key takes jsonwalk.Key's reading (the oracle of TestKeyLitMatchesKeyAt
// and TestFastPathsPrepareAlike).
var keyLitOn = true

// keyLitID reports whether the member at s[i] has the key "id" written
// `"id":`, the literal without escapes and the colon right after it,
// and returns the offset of its value: what jsonwalk.Key finds of such a member
// (the literal `"id"`, no escape, its value after the colon and any
// white space), without scanning the literal for its end. The key is a
// constant of at most 16 bytes, so the comparison loads the text in
// place.
func keyLitID(s string, i int) (value int, ok bool) {
	const k = `"id":`
	if !keyLitOn || i < 0 || len(s)-i < len(k) || s[i:i+len(k)] != k {
		return -1, false
	}
	return jsonwalk.WS(s, i+len(k)), true
}

// keyLitRuntime is keyLitID of the key "agentRuntime", written
// `"agentRuntime":`.
func keyLitRuntime(s string, i int) (value int, ok bool) {
	const k = `"agentRuntime":`
	if !keyLitOn || i < 0 || len(s)-i < len(k) || s[i:i+len(k)] != k {
		return -1, false
	}
	return jsonwalk.WS(s, i+len(k)), true
}
