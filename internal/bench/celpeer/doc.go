// Package celpeer is the peer side of occkit's decision benchmark: the
// runtime decision of internal/bench.Decisions written as one cel-go
// expression and evaluated on the decoded Configuration, beside occkit's
// prepared decision (selection.Prepare). It is a module of its own so
// that occkit's go.mod gains nothing; .ci/bench runs its BenchmarkCEL and
// internal/bench's BenchmarkDecision in the same rounds and prints the
// ratio `models=N decision cel-go/occkit time`.
//
// The expression follows SEL-1's lookup order as far as the benchmarked
// documents need it: the agent entry's model key, the agents.defaults
// model key (provider-qualified, then bare), the provider catalog row, the
// provider wildcard key, the provider's own agentRuntime, else automatic
// selection, which with no plugin registered is openclaw. Both sides get
// a document loaded once (decoded once for cel-go, prepared once for
// occkit) and the same four requests.
package celpeer
