package openclawschema

import (
	"strconv"
	"strings"
)

// validURL approximates what OpenClaw's url format accepts: the string,
// trimmed, parses as a WHATWG URL. It checks what decides a parse for the
// strings configuration holds: a scheme; for the special schemes a
// non-empty host without forbidden code points (file excepted) and a
// numeric port of at most 65535. It is deliberately not a full URL
// parser: the divergences it leaves (percent-encoding and IDNA errors,
// IPv4 number forms) are listed in the package documentation.
func validURL(s string) bool {
	s = strings.TrimSpace(s)
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	colon := strings.IndexByte(s, ':')
	if colon < 1 || !isAlpha(s[0]) {
		return false
	}
	scheme := strings.ToLower(s[:colon])
	for i := 1; i < len(scheme); i++ {
		c := scheme[i]
		if !isAlpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	rest := s[colon+1:]
	special := map[string]bool{"http": true, "https": true, "ws": true, "wss": true, "ftp": true, "file": true}
	if !special[scheme] {
		return true
	}
	rest = strings.TrimLeft(rest, `/\`)
	authority := rest
	if i := strings.IndexAny(rest, `/\?#`); i >= 0 {
		authority = rest[:i]
	}
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		authority = authority[at+1:]
	}
	host, port := authority, ""
	if strings.HasPrefix(host, "[") {
		end := strings.IndexByte(host, ']')
		if end < 0 {
			return false
		}
		tail := host[end+1:]
		if tail != "" && tail[0] != ':' {
			return false
		}
		host, port = host[:end+1], strings.TrimPrefix(tail, ":")
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host, port = host[:i], host[i+1:]
	}
	if port != "" {
		p, err := strconv.Atoi(port)
		if err != nil || p < 0 || p > 65535 || strings.ContainsAny(port, "+-") {
			return false
		}
	}
	if host == "" {
		return scheme == "file"
	}
	if strings.HasPrefix(host, "[") {
		return true
	}
	return !strings.ContainsAny(host, " #%/:<>?@[\\]^|")
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
