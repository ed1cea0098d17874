package runner

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file holds a loopback HTTPS server that plays the OpenAI Responses
// API the way the real Codex CLI reaches a custom endpoint (PRB-9): HTTP/2
// over TLS, `POST <base>/responses` with `Authorization: Bearer`, answered
// with server-sent events. Each scripted behaviour gets its own server and
// port, so no behaviour name appears in a URL or a path.

// testCA is a throwaway certificate authority; its PEM file is what the
// probe's SSL_CERT_FILE points at.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	file string
}

func newTestCA(t testing.TB, dir, name string) *testCA {
	t.Helper()
	tmpl := &x509.Certificate{
		Subject:               pkix.Name{CommonName: name},
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
	der, key := issueCert(t, tmpl, nil, nil)
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, name+".pem")
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key, file: file}
}

// leaf issues a server certificate for the loopback names.
func (ca *testCA) leaf(t testing.TB) tls.Certificate {
	t.Helper()
	der, key := issueCert(t, &x509.Certificate{
		Subject:     pkix.Name{CommonName: "127.0.0.1"},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.IPv6loopback},
		DNSNames:    []string{"localhost"},
	}, ca.cert, ca.key)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// issueCert signs tmpl, valid for a day, with a fresh key; a nil parent
// makes it self-signed.
func issueCert(t testing.TB, tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) ([]byte, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl.SerialNumber = big.NewInt(time.Now().UnixNano())
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	return der, key
}

// script answers the n-th request (1-based) a behaviour's server receives.
type script func(w http.ResponseWriter, r *http.Request, n int)

// responsesServer is one behaviour's endpoint.
type responsesServer struct {
	srv      *httptest.Server
	mu       sync.Mutex
	requests int
	auth     []string // Authorization headers seen
	paths    []string // request lines seen ("POST /v1/responses")
	protos   []string
}

// startResponses starts an HTTP/2 TLS server with a certificate from ca
// that answers every request with s. The handler ends when the request
// does, so a hanging script never outlives the probe.
func startResponses(t testing.TB, ca *testCA, s script) *responsesServer {
	t.Helper()
	rs := &responsesServer{}
	rs.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		rs.mu.Lock()
		rs.requests++
		n := rs.requests
		rs.auth = append(rs.auth, r.Header.Get("Authorization"))
		rs.paths = append(rs.paths, r.Method+" "+r.URL.Path)
		rs.protos = append(rs.protos, r.Proto)
		rs.mu.Unlock()
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
			http.NotFound(w, r)
			return
		}
		s(w, r, n)
	}))
	rs.srv.EnableHTTP2 = true
	rs.srv.TLS = &tls.Config{Certificates: []tls.Certificate{ca.leaf(t)}}
	rs.srv.Config.ErrorLog = quietLog()
	rs.srv.StartTLS()
	t.Cleanup(rs.srv.Close)
	return rs
}

// base is the endpoint's base URL under the given path ("/v1").
func (rs *responsesServer) base(path string) string { return rs.srv.URL + path }

// seen returns what the server saw.
func (rs *responsesServer) seen() (requests int, auth, paths, protos []string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.requests, append([]string(nil), rs.auth...), append([]string(nil), rs.paths...), append([]string(nil), rs.protos...)
}

// sseEvent renders one server-sent event whose data is v as JSON.
func sseEvent(v map[string]any) string {
	b, _ := json.Marshal(v)
	return fmt.Sprintf("event: %s\ndata: %s\n\n", v["type"], b)
}

func created() string {
	return sseEvent(map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_1"}})
}

func messageDone(text string) string {
	return sseEvent(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": map[string]any{
		"type": "message", "role": "assistant", "id": "msg_1",
		"content": []any{map[string]any{"type": "output_text", "text": text}},
	}})
}

func completed() string {
	return sseEvent(map[string]any{"type": "response.completed", "response": map[string]any{
		"id": "resp_1", "usage": map[string]any{
			"input_tokens": 12, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 2, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
			"total_tokens": 14,
		},
	}})
}

func failedResponse(code, message string) string {
	return sseEvent(map[string]any{"type": "response.failed", "response": map[string]any{
		"id": "resp_1", "error": map[string]any{"code": code, "message": message},
	}})
}

// streamHeaders starts an SSE answer.
func streamHeaders(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// stream answers with the events in order, flushing each.
func stream(events ...string) script {
	return func(w http.ResponseWriter, r *http.Request, _ int) {
		streamHeaders(w)
		for _, e := range events {
			_, _ = io.WriteString(w, e)
			http.NewResponseController(w).Flush()
		}
	}
}

// reply is a successful turn whose assistant message is text.
func reply(text string) script { return stream(created(), messageDone(text), completed()) }

// status answers with an HTTP status and a JSON body.
func status(code int, body string, header ...string) script {
	return func(w http.ResponseWriter, r *http.Request, _ int) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

// dropAfter sends the events, then resets the stream (HTTP/2 RST_STREAM).
func dropAfter(events ...string) script {
	return func(w http.ResponseWriter, r *http.Request, n int) {
		stream(events...)(w, r, n)
		panic(http.ErrAbortHandler)
	}
}

// hang sends the events, then holds the stream open until the request ends.
func hang(events ...string) script {
	return func(w http.ResponseWriter, r *http.Request, n int) {
		if len(events) > 0 {
			stream(events...)(w, r, n)
		}
		<-r.Context().Done()
	}
}

// hangHeaders answers nothing at all until the request ends.
func hangHeaders() script {
	return func(w http.ResponseWriter, r *http.Request, _ int) { <-r.Context().Done() }
}

// firstThen answers the first k requests with first, later ones with then.
func firstThen(k int, first, then script) script {
	return func(w http.ResponseWriter, r *http.Request, n int) {
		if n <= k {
			first(w, r, n)
			return
		}
		then(w, r, n)
	}
}

// refusedAddr is a loopback port nothing listens on.
func refusedAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// rawServer accepts TCP connections and hands each to serve; it stops with
// the test.
func rawServer(t testing.TB, serve func(net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				serve(c)
			}()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return l.Addr().String()
}

// quietLog drops the server's own error log (handshake failures the
// scripts cause on purpose).
func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }
