// Package celrules writes a platform team's own admission rules
// ([github.com/occkit/occkit/admission.Rule]) as CEL expressions, kept in a
// rule file beside the team's configurations:
//
//	rules:
//	  - name: company/no-codex-in-prod
//	    expression: |
//	      !(harness == "codex" && agent.namespaceId.startsWith("ns_prod"))
//	    message: Codex does not run in production namespaces
//	    path: agents.defaults.model
//
// [Load] reads and compiles a file; hand its rules to admission.Options.Rules.
// It is a module of its own (like the drivers), so that a control plane
// that imports only occkit's policy packages never has cel-go in its
// build; occkit's own packages do not import it.
//
// # Rule files
//
// A rule file is YAML (or JSON, which YAML reads too) holding one mapping
// with one key, rules: a list of rules, each a mapping of
//
//   - name: "namespace/name", as admission.CheckRuleName accepts it; the
//     Rule of the rule's refusals;
//   - expression: a CEL expression of type bool; true admits;
//   - message: the refusal's message when the expression is false;
//   - path (optional): the setting the refusal points at, a dot path
//     (agents.defaults.model) or a JSON pointer; the root when absent.
//     Admission places the refusal where that setting is written in the
//     Configuration's source (file:line:col).
//
// [Parse] reports every problem of a file at once, each a 400 at its path
// in the file (rules[2].expresion) with its file:line:col; an unknown key
// comes with the nearest known one; a key written twice, a member that is
// not a string, anchors and aliases are refused. [Compile] checks each
// rule once: its name (once per set), message, path and expression, which
// must type-check to bool, and refuses with the rule's name as Rule and,
// for an expression, the position of the fault inside it mapped into the
// file: exact for a literal block scalar (|) and for a single-line plain
// or quoted scalar written without escapes, the scalar's start otherwise.
// Limits: [MaxFileBytes], [MaxRules], [MaxExpressionBytes].
//
// # Variables
//
// An expression sees what admission decided (admission.View):
//
//	agent           {id, configurationId, namespaceId, labels: map(string, string)}
//	tenant          {id, labels: map(string, string)}
//	principal       string: the caller
//	harness         string: openclaw or codex
//	mode            string: embedded or dedicated
//	compute         {kind, id}
//	primary         model: the effective primary model
//	fallbacks       list(model): its fallbacks, in order
//	models          list(model): primary then fallbacks ([] without a model)
//	channels        list(string): the channels configured and not disabled
//	secretBindings  list({env, kind, namespaceId, id}): references, never values
//	release         {harness, version, openclawSchema}: the approved release
//	document        dyn: the admitted document (after stamp)
//
// where a model is {ref, provider, id, profile, runtime, path} (path is
// where the ref is written, "" when unknown). Without a model, primary's
// members are "". Labels are never null: an absent map is {}. A missing
// map key is an evaluation error, so write `agent.labels.?env.orValue("")`
// or `"env" in agent.labels && …` (CEL's optional syntax is on). document
// is read as CEL reads JSON (numbers are doubles, compared with ints
// across types) and lazily: a rule reads the members it reaches, never
// the whole document. The string extensions (ext.Strings) and sets
// (ext.Sets) are available.
//
// Typical rules, each one line:
//
//	!(harness == "codex" && agent.labels.?env.orValue("") == "production")
//	models.all(m, m.provider in ["anthropic", "google"])
//	mode != "dedicated" || tenant.labels.?plan.orValue("") == "enterprise"
//	tenant.id != "tnt_acme" || channels.all(c, c == "slack")
//	size(fallbacks) <= 3
//
// # Evaluation
//
// Each expression is parsed, checked and planned once, at [Compile];
// evaluation then costs a few variable reads. A variable is converted to
// CEL when an expression first reads it, once per admission: the rules of
// one admission share the values (admission.View.Memo). Every evaluation
// is bounded by a cost limit ([Options].CostLimit, [DefaultCostLimit])
// and by the rule's deadline (admission.Options.RuleTimeout), checked
// every 100 iterations of a comprehension (an expression without one is
// not handed the context: its cost limit bounds it). So a compiled rule
// is an admission.SelfBoundedRule, which admission runs in the admitting
// goroutine rather than handing it over to another. An evaluation error
// (a missing key, the cost limit) is the rule's fault: admission reports
// it as 500 INTERNAL naming the rule, never CEL's text; a deadline is 503.
package celrules
