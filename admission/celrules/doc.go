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
//
// The cost limit is enforced without counting where it cannot be
// reached. At [Compile], cel-go's static estimate of each expression's
// cost (its own, which its runtime counting mirrors) is taken with every
// string, list and map the expression reads bounded by the admission's
// input: by the document's length in bytes what it reads from document
// and channels, and by the sum of the other variables' string lengths
// and counts what it reads from them. The largest input whose estimate
// stays within the limit is kept; an admission within it runs the
// expression without cel-go's runtime cost tracking, as the limit cannot
// be exceeded there; any other runs it counted and stops at the limit as
// before. The verdicts are the same either way (TestUntrackedAnswersAsTracked).
//
// # Cost
//
// Twenty rules of the usual kinds (the benchmark's: the five above and
// fifteen more over the view and the document) add 5% to the admission of
// a 1,000-model document, which costs 2.4 ms of CPU without them: their
// 0.13 ms is one pass over the document's top level and twenty
// evaluations. The bound is 5%; see below for what is left.
// Method: BenchmarkRulesOverhead -benchtime 400x, six runs of this
// package's test binary interleaved with six of the code before, on a
// 2-core machine shared with other work (load 3 to 8). A run is 400
// rounds, each four admissions without the rules and four with them, in
// alternating order, each batch timed by the process's CPU time; a run
// reports the median over its rounds of the rules' share. Medians of the
// six runs (their ranges), against main at 41e903d and, earlier, against
// d3d2b4f, whose admission cost 5 ms:
//
//	                                  41e903d           after
//	20 CEL rules                      14.7% (13.1-16.7)  7.2% (6.0-7.7)
//	  their CPU per admission         361 µs             172 µs
//	20 Go rules that return nil        4.0% (3.6-6.5)    3.9% (3.2-4.6)
//	no rules on either side (bias)     0.2% (0.0-0.4)    0.2% (-0.3-0.4)
//	                                  d3d2b4f           after
//	20 CEL rules                       6.6% (4.5-8.3)    4.0% (3.4-4.3)
//	  their CPU per admission         340 µs             199 µs
//
// Then without cost tracking where the limit cannot be reached (see
// Evaluation), five runs each, against main at 6598b82 (load 3 to 5):
//
//	                                  6598b82           after
//	20 CEL rules                       6.4% (5.2-6.9)    5.1% (4.9-5.6)
//	  their CPU per admission         159 µs             131 µs
//	no rules on either side (bias)    -0.1% (-0.5-0.0)  -0.0% (-0.3-0.3)
//
// What was cut: a compiled rule is an admission.SelfBoundedRule, run in
// the admitting goroutine (handing the rules to another goroutine costs
// about 90 µs of CPU an admission: the Go rules' row); a rule's context
// arms no timer unless asked for Done (1.4 µs a rule); the variables are
// converted once an admission; the document is read from its text, and
// what a rule reads is kept for the others. Alone, over fresh views
// (BenchmarkCheck), the twenty rules cost about 70 µs, of which 35 µs is
// the View's one pass over the document's top level (channels,
// DocumentKey), once an admission whatever the number of rules; inside an
// admission they cost two to three times that (the profile of an
// admission: 50 µs for the pass, 60 µs of evaluation at the least), the
// interpreter's code and data no longer in the caches after the
// admission's own work. What is left for 5%: the pass is needed by any
// rule set that reads channels or a top-level member written after the
// model catalog, and costs what skipping the catalog costs; admission
// walks the same bytes before the rules (the credential scan) and could
// hand the View the top level's offsets. (It walks the canonical
// document, whose bytes and member order differ from the View's, and
// channels are in the document's order; and admission cannot make an
// occkit.Value of a member from offsets: the hand-over needs a
// constructor in occkit's root package.) Over fresh views the twenty
// rules now cost about 55 µs (BenchmarkCheck), the View's pass 40% of it.
//
// A rule that reads the model catalog itself pays for its size: counting
// or probing it costs 0.1 ms (4% of a 1,000-model admission), iterating
// over its entries far more, and here cannot cost less. One such rule,
// alone over fresh views (BenchmarkRuleShapes, CPU, median of six runs,
// d3d2b4f / after):
//
//	size(document.agents.defaults.models) <= 2000            218 µs / 97 µs
//	!("openai/gpt-5" in document.agents.defaults.models)     181 µs / 95 µs
//	….models.all(k, k.startsWith("anthropic/"))              2.5 ms / 2.7 ms
//	….models.all(k, ….models[k].alias != "")                 103 ms / 5.4 ms
//
// The last looked each entry up from the first one (now the entries
// read are kept); what remains of both comprehensions is cel-go's: with
// a cost limit, cel-go v0.29.2 keeps every value an evaluation computes
// on a stack that a comprehension grows and searches from the top
// (interpreter.refValStack), so an iteration costs in proportion to the
// ones before it. The same all() over a list of strings costs 0.17 ms
// for 1,000 elements and 0.8 ms for 4,000 without the limit, 2.3 ms and
// 23 ms with it. The cost limit stays, as it is what bounds a rule; a
// platform team whose rule must walk the catalog writes it as a Go rule
// (admission.RuleFunc) over the same View.
package celrules
