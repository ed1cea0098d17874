package probe

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// docComments returns the doc comment of every constant declared in file.
func docComments(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			doc := v.Doc.Text()
			if doc == "" && len(g.Specs) == 1 {
				doc = g.Doc.Text()
			}
			for _, n := range v.Names {
				if lit, ok := v.Values[0].(*ast.BasicLit); ok {
					docs[strings.Trim(lit.Value, `"`)] = doc
				}
				_ = n
			}
		}
	}
	return docs
}

// PRB-1, PRB-8: every code is documented with its worker mapping and mapped.
func TestCodesDocumentedAndMapped_PRB1_PRB8(t *testing.T) {
	docs := docComments(t, "codes.go")
	want := map[Code]WorkerOutcome{
		Ready:                {},
		ModelProbeTimeout:    {DeploymentCode: "RUNTIME_MODEL_PROBE_TIMEOUT", FailsAtOnce: true, Redeploy: true},
		ModelProbeFailed:     {DeploymentCode: "RUNTIME_MODEL_PROBE_FAILED", FailsAtOnce: true},
		AuthenticationFailed: {DeploymentCode: "RUNTIME_AUTHENTICATION_FAILED", FailsAtOnce: true},
		Unavailable:          {DeploymentCode: "RUNTIME_STARTUP_FAILED", FailsAtOnce: true},
		CPUStarved:           {DeploymentCode: "RUNTIME_CPU_STARVED", FailsAtOnce: true},
		LoginFailed:          {DeploymentCode: "RUNTIME_LOGIN_FAILED", FailsAtOnce: true},
	}
	if len(AllCodes()) != len(want) {
		t.Fatalf("AllCodes has %d codes, the mapping table %d", len(AllCodes()), len(want))
	}
	for _, c := range AllCodes() {
		t.Run(string(c), func(t *testing.T) {
			w, ok := want[c]
			if !ok {
				t.Fatalf("%s is not in the mapping table", c)
			}
			if diff := cmp.Diff(w, c.Worker()); diff != "" {
				t.Errorf("Worker (-want +got):\n%s", diff)
			}
			doc := docs[string(c)]
			if doc == "" {
				t.Fatalf("%s has no doc comment", c)
			}
			if w.FailsAtOnce && !strings.Contains(doc, w.DeploymentCode) {
				t.Errorf("doc of %s does not name its mapping %s: %q", c, w.DeploymentCode, doc)
			}
			if !c.Valid() || c.Failed() == (c == Ready) {
				t.Errorf("Valid/Failed wrong for %s", c)
			}
		})
	}
	if got := IncompatibleResponse.Worker(); got.DeploymentCode != "RUNTIME_STARTUP_FAILED" || !got.FailsAtOnce {
		t.Errorf("INCOMPATIBLE_RESPONSE: %+v", got)
	}
	if got := Code("SOMETHING_ELSE").Worker(); got != (WorkerOutcome{}) {
		t.Errorf("unknown code fails the deployment: %+v", got)
	}
}

// PRB-5: every failure class is documented and says whether it retries.
func TestFailureClassesDocumented_PRB5(t *testing.T) {
	docs := docComments(t, "retry.go")
	retried := map[FailureClass]bool{ClassTimeout: true, ClassKilled: true, ClassHTTP5xx: true,
		ClassOverloaded: true, ClassConnectionDropped: true, ClassNetwork: true}
	for _, c := range AllFailureClasses() {
		doc := docs[string(c)]
		if doc == "" {
			t.Errorf("%s has no doc comment", c)
		}
		if c.Retried() != retried[c] {
			t.Errorf("%s retried = %v", c, c.Retried())
		}
		if mark := map[bool]string{true: "Retried.", false: "Not retried."}[retried[c]]; !strings.Contains(doc, mark) {
			t.Errorf("doc of %s lacks %q", c, mark)
		}
	}
	if FailureClass("nope").Retried() || FailureClass("nope").Valid() {
		t.Error("an unknown class retries")
	}
}

// PRB-6: the cause vocabulary; off-vocabulary causes are dropped.
func TestNewCause_PRB6(t *testing.T) {
	tests := []struct {
		kind   CauseKind
		detail string
		ok     bool
	}{
		{CauseProcessExit, "exit-1", true}, {CauseProcessExit, "exit-999", true}, {CauseProcessExit, "exit-0", false},
		{CauseProcessExit, "exit-1000", false}, {CauseProcessExit, "signal-SIGKILL", true}, {CauseProcessExit, "signal-KILL", false},
		{CauseProcessExit, "error-ENOBUFS", true}, {CauseProcessExit, "error-enoent", false}, {CauseProcessExit, "", true},
		{CauseProbeStatus, "format", true}, {CauseProbeStatus, "no-reply", true}, {CauseProbeStatus, "sk-live-abc", false},
		{CauseInvalidOutput, "json", true}, {CauseInvalidOutput, "shape", true}, {CauseInvalidOutput, "xml", false},
		{CauseWrapperError, "", true}, {CauseWrapperError, "boom", false}, {"PROVIDER_TEXT", "", false},
	}
	for _, tt := range tests {
		got, ok := NewCause(tt.kind, tt.detail)
		if ok != tt.ok || (ok && got != (Cause{tt.kind, tt.detail})) || (!ok && !got.IsZero()) {
			t.Errorf("NewCause(%s, %q) = %v, %v; want ok=%v", tt.kind, tt.detail, got, ok, tt.ok)
		}
		if ok != (Cause{tt.kind, tt.detail}).Valid() {
			t.Errorf("Valid(%s, %q) disagrees with NewCause", tt.kind, tt.detail)
		}
	}
	if len(AllCauseKinds()) != len(causeDetails) {
		t.Error("AllCauseKinds and the vocabulary disagree")
	}
}

// PRB-2: the cap from cpu.max.
func TestCap_PRB2(t *testing.T) {
	tests := []struct {
		cpuMax string
		want   time.Duration
	}{
		{"max 100000", 65 * time.Second},
		{"max 100000\n", 65 * time.Second},
		{"200000 100000", 65 * time.Second},
		{"100000 100000", 65 * time.Second},
		{"50000 100000\n", 110 * time.Second},
		{"12500 100000", 380 * time.Second},
		{"33333 100000", 155002 * time.Millisecond},
		{"1000 100000", 600 * time.Second},
		{"", 65 * time.Second},
		{"garbage", 65 * time.Second},
		{"0 100000", 65 * time.Second},
		{"-5 100000", 65 * time.Second},
	}
	for _, tt := range tests {
		if got := Cap(tt.cpuMax); got != tt.want {
			t.Errorf("Cap(%q) = %v, want %v", tt.cpuMax, got, tt.want)
		}
	}
}

// PRB-2: reaching the cap is CPU-starved only past a quarter of waiting.
func TestAtCap_PRB2(t *testing.T) {
	if got := AtCap(40*time.Second, 10*time.Second, true); got != ModelProbeTimeout {
		t.Errorf("wait = elapsed/4: %s", got)
	}
	if got := AtCap(40*time.Second, 10*time.Second+time.Millisecond, true); got != CPUStarved {
		t.Errorf("wait > elapsed/4: %s", got)
	}
	if got := AtCap(40*time.Second, time.Hour, false); got != ModelProbeTimeout {
		t.Errorf("unknown wait: %s", got)
	}
}

// PRB-5: the retry policy as a pure decision.
func TestRetryPolicy_PRB5(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	tests := []struct {
		name     string
		attempts []Attempt
		jitter   float64
		want     Trace
	}{
		{"ready at once", []Attempt{{Code: Ready, Elapsed: 2 * s}}, 0,
			Trace{Runs: 1, Final: Ready, Timeouts: []time.Duration{30 * s}}},
		{"timeout retried", []Attempt{{Code: ModelProbeTimeout, Elapsed: 30 * s}, {Code: Ready, Elapsed: 3 * s}}, 0,
			Trace{Runs: 2, Final: Ready, Timeouts: []time.Duration{30 * s, 30 * s}, Delays: []time.Duration{s}}},
		{"second cap shrinks to the budget", []Attempt{{Code: ModelProbeTimeout, Elapsed: 40 * s}, {Code: ModelProbeTimeout, Elapsed: 19 * s}}, 1,
			Trace{Runs: 2, Final: ModelProbeTimeout, Timeouts: []time.Duration{30 * s, 19500 * ms}, Delays: []time.Duration{1500 * ms}}},
		{"only one retry", []Attempt{{Code: ModelProbeFailed, FailureClass: ClassNetwork, Elapsed: s}, {Code: ModelProbeFailed, FailureClass: ClassNetwork, Elapsed: s}, {Code: Ready}}, 0.5,
			Trace{Runs: 2, Final: ModelProbeFailed, Timeouts: []time.Duration{30 * s, 30 * s}, Delays: []time.Duration{1250 * ms}}},
		{"credential not retried", []Attempt{{Code: ModelProbeFailed, FailureClass: ClassCredential, Elapsed: s}, {Code: Ready}}, 0,
			Trace{Runs: 1, Final: ModelProbeFailed, Timeouts: []time.Duration{30 * s}}},
		{"failure without class not retried", []Attempt{{Code: ModelProbeFailed, Elapsed: s}, {Code: Ready}}, 0,
			Trace{Runs: 1, Final: ModelProbeFailed, Timeouts: []time.Duration{30 * s}}},
		{"authentication never retried", []Attempt{{Code: AuthenticationFailed, FailureClass: ClassNetwork, Elapsed: s}, {Code: Ready}}, 0,
			Trace{Runs: 1, Final: AuthenticationFailed, Timeouts: []time.Duration{30 * s}}},
		{"spent budget times out without starting", []Attempt{{Code: ModelProbeFailed, FailureClass: ClassHTTP5xx, Elapsed: 60 * s}, {Code: Ready}}, 0,
			Trace{Runs: 1, Final: ModelProbeTimeout, Timeouts: []time.Duration{30 * s}}},
		{"unknown code is failed", []Attempt{{Code: "WEIRD", Elapsed: s}}, 0,
			Trace{Runs: 1, Final: ModelProbeFailed, Timeouts: []time.Duration{30 * s}}},
		{"missing second outcome is failed", []Attempt{{Code: ModelProbeTimeout, Elapsed: s}}, 0,
			Trace{Runs: 2, Final: ModelProbeFailed, Timeouts: []time.Duration{30 * s, 30 * s}, Delays: []time.Duration{s}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RetryPolicy{}.Simulate(tt.attempts, func() float64 { return tt.jitter })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Simulate (-want +got):\n%s", diff)
			}
		})
	}
	if lo, hi := (RetryPolicy{}).Delays(); lo != s || hi != 1500*ms {
		t.Errorf("Delays = %v, %v", lo, hi)
	}
}
