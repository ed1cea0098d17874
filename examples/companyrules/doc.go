// Companyrules shows a platform team's own admission rules beside
// occkit's: ACME Platform keeps five rules in rules.yaml (CEL expressions,
// github.com/occkit/occkit/admission/celrules), its Configurations in
// configs/ and its cases in cases/ (JSON5, in occkit's case format,
// github.com/occkit/occkit/admission/policytest), and tests the rules as
// occkit tests its own:
//
//	go test ./examples/companyrules             # from the repository root
//	go run ./examples/companyrules              # the same, as a program
//	go run ./examples/companyrules -rules FILE -cases DIR
//
// The rules: no Codex in production namespaces; only anthropic and
// google models; dedicated mode only for tenants on the enterprise plan;
// no channel but Slack for the tenant tnt_acme; at most three fallbacks.
// Each case names the configuration file it admits, the Agent (its
// namespace and labels) and the tenant (its plan), and expects either the
// rules that held or a refusal by its rule name, path and file position.
//
// occcheck reports the same rules beside occkit's own while a
// Configuration is written:
//
//	go run ./examples/occcheck -rules examples/companyrules/rules.yaml -mode dedicated \
//	    -namespace ns_prod_eu -tenant-label plan=enterprise examples/companyrules/configs/coder.json5
//	examples/companyrules/configs/coder.json5:5:7: agents.defaults.model: Codex does not run in production namespaces [company/no-codex-in-prod]
//	examples/companyrules/configs/coder.json5:5:7: agents.defaults.model: only anthropic and google models are approved [company/only-anthropic-and-google]
package main
