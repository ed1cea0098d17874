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
//
// The comparison favours cel-go: its expression does less than occkit's
// decision (no trimming or case folding of keys, no tie-break among keys
// naming one model, no ambiguity rule, no route facts or overrides) and
// returns only the runtime, while occkit's Result also carries the
// source, the effective route and its reason chain (rebuilt on demand by
// Result.Reasons; internal/bench's BenchmarkDecisionExplained measures
// decisions that ask for it). TestSameDecision checks that both choose
// the same runtime for every benchmarked decision.
package celpeer
