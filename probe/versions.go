package probe

// CodexVersions lists the Codex CLI versions whose probe contract the
// classifiers and probe/runner are tested against: the flags the runner
// passes (`codex login`, `codex exec --json` and their options) and the
// JSONL event stream [ClassifyCodex] reads (PRB-4). It is the one list of
// supported Codex versions: admission approves only these (ADM-3), and
// .ci/codex.sh installs the first for the real-Codex tier, which checks
// that the binary it runs reports it. Add a version here only after the
// real tier passed with it.
func CodexVersions() []string { return []string{"0.171.0"} }
