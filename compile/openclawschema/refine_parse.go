package openclawschema

import (
	"math"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// The value parsers OpenClaw's refinements use, as the pinned release
// implements them (facts read from its dist code, not its text).

// durationUnits are the units of OpenClaw's duration strings, in
// milliseconds (the `ms` package's values).
var durationUnits = map[string]float64{"ms": 1, "s": 1e3, "m": 60e3, "h": 3600e3, "d": 86400e3}

var (
	singleDuration    = regexp.MustCompile(`^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$`)
	compositeDuration = regexp.MustCompile(`(\d+(?:\.\d+)?)(ms|s|m|h|d)`)
)

// parseDuration is OpenClaw's parseDurationMs: trimmed and lower-cased, a
// number with an optional unit (defaultUnit when it has none), or a run of
// number-unit segments ("1h30m"), non-negative, rounding to a safe integer
// of milliseconds. ok is false where OpenClaw throws.
func parseDuration(raw, defaultUnit string) (ms float64, ok bool) {
	s := strings.ToLower(strings.TrimSpace(raw))
	if s == "" {
		return 0, false
	}
	if m := singleDuration.FindStringSubmatch(s); m != nil {
		unit := m[2]
		if unit == "" {
			unit = defaultUnit
		}
		return durationToken(m[1], unit)
	}
	total, consumed := 0.0, 0
	for _, loc := range compositeDuration.FindAllStringSubmatchIndex(s, -1) {
		if loc[0] != consumed {
			return 0, false
		}
		v, ok := durationToken(s[loc[2]:loc[3]], s[loc[4]:loc[5]])
		if !ok {
			return 0, false
		}
		total += v
		consumed = loc[1]
	}
	if consumed == 0 || consumed != len(s) {
		return 0, false
	}
	return safeRound(total)
}

func durationToken(num, unit string) (float64, bool) {
	f, err := strconv.ParseFloat(num, 64)
	mult, known := durationUnits[unit]
	if err != nil || !known || math.IsInf(f*mult, 0) {
		return 0, false
	}
	return safeRound(f * mult)
}

// safeRound is Math.round with the Number.isSafeInteger check.
func safeRound(f float64) (float64, bool) {
	r := math.Floor(f + 0.5)
	if math.IsNaN(r) || math.Abs(r) > 1<<53-1 {
		return 0, false
	}
	return r, true
}

// byteUnits are the units of OpenClaw's byte sizes.
var byteUnits = map[string]float64{"b": 1, "kb": 1 << 10, "k": 1 << 10, "mb": 1 << 20, "m": 1 << 20,
	"gb": 1 << 30, "g": 1 << 30, "tb": 1 << 40, "t": 1 << 40}

var byteSize = regexp.MustCompile(`^(\d+(?:\.\d+)?)([a-z]+)?$`)

// parseByteSize is OpenClaw's parseByteSize: a non-negative number with
// an optional binary unit (defaultUnit when it has none).
func parseByteSize(raw, defaultUnit string) (float64, bool) {
	s := strings.ToLower(strings.TrimSpace(raw))
	m := byteSize.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(m[1], 64)
	unit := m[2]
	if unit == "" {
		unit = defaultUnit
	}
	mult, known := byteUnits[unit]
	if err != nil || !known {
		return 0, false
	}
	return safeRound(f * mult)
}

// stringified is OpenClaw's normalizeStringifiedOptionalString: a string
// trimmed, a number or boolean as JavaScript's String() writes it; absent
// (ok false) for other types and for a blank result.
func stringified(v gjson.Result) (string, bool) {
	var s string
	switch v.Type {
	case gjson.String:
		s = v.String()
	case gjson.Number:
		s = jsNumberString(v.Float())
	case gjson.True:
		s = "true"
	case gjson.False:
		s = "false"
	default:
		return "", false
	}
	s = strings.TrimSpace(s)
	return s, s != ""
}

// jsNumberString is JavaScript's String(number) for finite values.
func jsNumberString(f float64) string {
	if f == 0 {
		return "0"
	}
	a := math.Abs(f)
	if a >= 1e21 || a < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		exp = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(exp, "+"), "-"), "0")
		sign := "+"
		if a < 1 {
			sign = "-"
		}
		return mant + "e" + sign + exp
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// isAbsPath is node's path.isAbsolute on POSIX.
func isAbsPath(s string) bool { return strings.HasPrefix(s, "/") }

var (
	windowsAbs = regexp.MustCompile(`^[A-Za-z]:[\\/]`)
	windowsUNC = regexp.MustCompile(`^\\\\[^\\]+\\[^\\]+`)
)

// isAbsPathAnyOS is OpenClaw's isAbsolutePath: POSIX, drive letter or
// UNC.
func isAbsPathAnyOS(s string) bool {
	return isAbsPath(s) || windowsAbs.MatchString(s) || windowsUNC.MatchString(s)
}

// webURL is the part of a WHATWG URL parse the refinements read.
type webURL struct {
	scheme, hostname, path  string
	userinfo, query, anchor bool
}

// parseWebURL approximates new URL(s) for the strings the refinements
// see: ok is false where validURL says the parse fails. hostname is
// lower-cased with IPv6 brackets kept, and path is "/" for an empty path
// of a special scheme, as WHATWG gives them.
func parseWebURL(s string) (webURL, bool) {
	if !validURL(s) {
		return webURL{}, false
	}
	s = strings.TrimSpace(s)
	u, err := url.Parse(strings.ReplaceAll(s, `\`, "/"))
	if err != nil {
		return webURL{}, false
	}
	w := webURL{scheme: strings.ToLower(u.Scheme), path: u.EscapedPath(),
		userinfo: u.User != nil, query: u.RawQuery != "" || u.ForceQuery, anchor: u.Fragment != "" || strings.HasSuffix(s, "#")}
	host := strings.ToLower(u.Host)
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
		if strings.Contains(h, ":") {
			host = "[" + h + "]"
		}
	}
	w.hostname = host
	switch w.scheme {
	case "http", "https", "ws", "wss", "ftp", "file":
		if w.path == "" {
			w.path = "/"
		}
	}
	return w, true
}

// httpURL is OpenClaw's isHttpUrl.
func httpURL(s string) bool {
	u, ok := parseWebURL(s)
	return ok && (u.scheme == "http" || u.scheme == "https")
}

// httpOrigin is OpenClaw's validateHttpOrigin: http(s), no path, query,
// fragment or credentials.
func httpOrigin(s string) bool {
	u, ok := parseWebURL(s)
	return ok && (u.scheme == "http" || u.scheme == "https") && u.path == "/" && !u.query && !u.anchor && !u.userinfo
}

// loopbackHTTPHosts are the hosts OpenClaw lets plain HTTP name.
var loopbackHTTPHosts = map[string]bool{"localhost": true, "127.0.0.1": true, "[::1]": true}

// exactHost is OpenClaw's normalizeExactAllowedHost: "" when valid, else
// which refusal (wildcard, form, hostname). Non-ASCII names are refused
// as hostnames (OpenClaw converts them with IDNA first; see the package
// doc).
func exactHost(raw string) string {
	s := strings.TrimRight(strings.ToLower(strings.TrimSpace(raw)), ".")
	if strings.Contains(s, "*") {
		return "wildcard"
	}
	h := s
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	if isIP(h) {
		return ""
	}
	if h == "" || strings.Contains(h, ":") || strings.ContainsAny(h, "/?#@") || strings.IndexFunc(h, isJSSpace) >= 0 {
		return "form"
	}
	if len(h) > 253 {
		return "hostname"
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' || !hostLabel.MatchString(label) {
			return "hostname"
		}
	}
	return ""
}

var hostLabel = regexp.MustCompile(`^[a-z0-9-]+$`)

// isIP is node's net.isIP != 0: a dotted-quad IPv4 address (no leading
// zeros) or an IPv6 address.
func isIP(s string) bool {
	ip := net.ParseIP(s)
	if ip == nil {
		return false
	}
	if strings.Contains(s, ":") {
		return true
	}
	for _, part := range strings.Split(s, ".") {
		if len(part) > 1 && part[0] == '0' {
			return false
		}
	}
	return true
}

func isJSSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}
