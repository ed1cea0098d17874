// Package canary holds occkit's credential canary property test (AUTH-2,
// AUTH-6, issue 11): random Configurations carry canary credentials in
// every credential-bearing place (provider keys, headers of random names
// and casings on providers and model rows, URL user info, query
// parameters and paths, the scheme-less svc:KEY@host form, request auth,
// agent model params, env and ${VAR} values, channel tokens); each is
// admitted and rendered for every topology and Compute (embedded OpenClaw
// on Kubernetes and SSH, dedicated Codex and dedicated OpenClaw on
// Kubernetes), and every output (the render plan, native documents, Codex
// TOML, Kubernetes objects, systemd units, errors, Explain and slog
// records) is searched for each canary in raw, JSON-escaped, URL-escaped,
// hex and base64 form. A canary may appear only where its consumer needs
// it: an inference credential only in the process that calls the model,
// a channel credential only in the gateway, neither in an error, a log
// record, Explain or a systemd unit.
//
// The CI run is small; OCCKIT_CANARY_CASES scales it (the test logs the
// number of searches it made).
package canary
