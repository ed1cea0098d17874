// Package admission admits a deployment and freezes it into an immutable
// [Revision] (ADM-1..ADM-7), validates harnessAuth bindings
// (AUTH-1..AUTH-7), re-checks a revision before runtime effects ([Verify])
// and guards activation ([Guard]).
//
// # Admission
//
// Make one [Admitter] with [New] and share it. [Admitter.Admit] runs the
// steps of ADM-1 in order and stops at the first refusal, returning no
// revision:
//
//  1. authorize the exact Agent, Configuration and harness credential
//     source ([Authorizer]; a denial is 403 FORBIDDEN, no Authorizer 503);
//  2. read the Configuration ([ConfigurationReader]);
//  3. apply the SandboxDriver's [drivers.ConfigurationTransformer], on the immutable
//     document, so the stored source never changes;
//  4. stamp platform-owned logging (LOG-1; [ComputeInfo].RuntimeLogging
//     "driver" preserves the native configuration, LOG-3);
//  5. refuse credential bytes in the document (ADM-7, 400: a literal at a
//     path the approved OpenClaw release marks sensitive, or a header
//     value, credential key, URL password or credential query parameter
//     in a model provider or model entry, or a literal credential in
//     env.vars; compile.CheckSecretLiterals), before any other stage reads
//     it, so nothing secret is validated further, frozen, digested or
//     rendered; then validate the document against the embedded schema
//     (DOC-5), then against the configuration contract of the approved
//     OpenClaw release ([openclawschema.ForRelease]: its schema,
//     refinements and channel ids; [Options].OpenClawSchema is the
//     caller's own check of a release the library does not carry,
//     DisableOpenClawSchema turns it off), so an admitted revision is one
//     that release starts with: a typo, a retired key, a wrong type, a
//     value outside an enum or an unknown channel id is a 400 at the key
//     OpenClaw names. The stamp is made while the canonical form the
//     revision freezes is written ([logging.StampCanonical]), and the
//     scan and both validations read that form (a form both accept in
//     one walk of its text, compile.Validator.ValidBeside): no rule
//     decides on the order of an object's members, so its verdict is the
//     stamped document's. A refusal is explained on the stamped document in its
//     own order (a refinement names the first of two clashing keys), and
//     only a refusal, a driver's gateway-settings check or the caller's
//     rules make that document. Loading,
//     repair and selection never apply it: they work on partial and
//     legacy documents OpenClaw's validation refuses by design;
//  6. resolve the Harness (RES-1..RES-13) and check rosters at the deploy
//     stage (RES-10). A caller that resolved the document itself passes
//     its analysis ([Prepare], [Request].Prepared) and admission resolves
//     with it instead of analysing the document again; one made from any
//     other document than the one read is refused (409, ADM-1). The stamp
//     edits nothing resolution reads, so the analysis of the document as
//     read holds for the stamped one; after a SandboxDriver's transform
//     admission analyses the transformed document itself;
//  7. validate harnessAuth for the Compute (AUTH) and, when the
//     ComputeDriver offers one, its [drivers.GatewaySettingsValidator];
//  8. run the caller's own rules ([Options].Rules, "Your own rules"
//     below);
//  9. freeze.
//
// A refusal about the Configuration is placed in the text it was loaded
// from when the Document carries a source map (compile.LoadFile, LoadFS,
// LoadReader): [occkit.Error].Position names the file, line and column,
// an included file's own for an included value ([occkit.Document.Place],
// run on refusals only). A refusal about the Agent (its harnessAuth, its
// execution mode) or the Compute has no position.
//
// # Your own rules
//
// A platform team's policies ("no Codex in production namespaces", "only
// anthropic and google models") are [Rule] values registered in
// [Options].Rules; [RuleFunc] makes one of a function, and the nested
// module github.com/occkit/occkit/admission/celrules compiles them from
// CEL expressions. They run at one point of ADM-1's order, step 8: after
// every check of occkit's own (so a rule only ever sees a deployment
// occkit would admit) and before the freeze (so a refusal leaves nothing
// behind). Each sees a [View] of what admission decided: the Agent with
// the labels the control plane supplied ([Agent].Labels), its [Tenant]
// ([Request].Tenant), the principal, the Harness, mode and Compute, the
// effective primary and fallback [Model]s with their providers, runtimes
// and the paths they are written at, the configured [Channel]s, the
// secretBindings (names and references), the approved [Release] and the
// admitted document as an [occkit.Value]. Admission holds no Secret
// value, so no rule sees one. A View is read-only: accessors return
// copies.
//
// Decisions where the rules are silent:
//
//   - A rule's name is "namespace/name" ([CheckRuleName]); the namespace
//     occkit is reserved, so no rule passes for occkit's own, and a SPEC
//     rule ID ("RES-7") is no valid name. New refuses a nil rule, a bad
//     name and a name registered twice (400, ADM-1, path rules[i]).
//   - Rules run in registration order, one after another, each with a
//     deadline of [Options].RuleTimeout ([DefaultRuleTimeout], one
//     second, when zero): a [SelfBoundedRule] (a CEL rule) in the
//     goroutine that called Admit, any other in a goroutine of its own
//     (admission hands over to it once for each run of such rules).
//     Every rule runs, and their refusals come back together
//     ([occkit.Join]), so a team sees all it has to fix.
//   - A refusal is the rule's *occkit.Error with Rule set to the rule's
//     name (whatever rule it gave), its code (400 when empty), path and
//     message kept, placed in the Configuration's source like every
//     refusal about the document ([occkit.Document.Place]).
//   - A rule that panics or returns a plain error is a fault of the rule:
//     500 INTERNAL naming the rule, never the panic's value nor the
//     error's text (both stay reachable through Unwrap). One that
//     overruns its deadline is 503 DEPENDENCY_UNAVAILABLE naming it, and
//     the rules after it do not run: admission stops waiting for it (a
//     rule that ignores its context keeps only the rules' goroutine), or
//     for a SelfBoundedRule refuses what it decides too late. A
//     cancelled admission is 503 ADM-1.
//   - The View locates the document's top-level members
//     ([View.DocumentKey]) and its channels through the Document's own
//     index (occkit.Document.Get: one pass per document, shared with any
//     other reader of it), when a rule first asks: a rule set that reads
//     neither costs no pass over a large document.
//   - The rules that held join the revision's reason chain
//     ([Revision.Reasons], [Revision.Explain]: "company/x (request):
//     held"), which is not persisted: rules never change the digest.
//   - A model's Runtime is the admitted Harness (RES-3: all models
//     resolve to one); its Path is where the primary is written (the
//     first RES-3 reason) and, for a {primary, fallbacks} selection, where
//     each fallback is; the root when admission cannot tell.
//   - Channels are the members of channels other than defaults and
//     modelByChannel whose value is an object without enabled: false.
//
// # Revisions
//
// A [Revision] has no exported fields. It holds the admitted document as
// canonical (key-sorted) JSON bytes with their SHA-256 digest, so the key
// order of the input never changes the digest; the source identity and
// generation; the approved Harness and version; the execution mode; the
// Compute identity; the bound SandboxDriver or managed [Account]; the
// harnessAuth snapshot ([occkit.Binding], references only); the credential
// [occkit.Projection]; the primary model and fallback order as admitted (ADM-4);
// the admitted level and logging ownership; the OpenClaw release whose
// contract the document was checked against
// ([Revision.OpenClawSchemaVersion], in the record and the digest): the
// approved OpenClaw release itself, "" only when the check is disabled.
// Every accessor returns a copy.
// [Revision.MarshalJSON] writes a deterministic record and [ParseRevision]
// restores one, refusing a record whose digest does not match its document.
// A revision also freezes the Agent's tenant namespace when the request
// named one ([Agent].NamespaceID) and the Configuration's secretBindings
// ([occkit.SecretBinding], references only).
//
// # Render plan
//
// [Revision.Plan] is the render stage (compile.BuildPlan) of a revision:
// every process it runs, with documents, environment and files by role;
// the drivers map it and hold no credential rule of their own. Admit
// checks the same plan before it returns (compile.PreparePlan: the
// render's refusals without its documents) and keeps what that check read
// of the document, from which Revision.Plan builds each render's plan; a
// revision restored from its record keeps nothing and plans from its
// document, to the same plan. Whatever the render refuses
// (a secretBinding shadowing a planned variable, an inference variable for
// a dedicated gateway, a credential outside the tenant namespace) is
// refused at admission. Among them: every variable a process's document
// still references (${NAME}, an env SecretRef, the $NAME shorthand) must
// be defined by the document's env.vars or set by the plan for that
// process, else 400 DOC-4 naming the variable, the path of the reference
// and the variables the process has; and every secretBinding must name a
// variable the gateway's document references, none that loads code or
// changes whom the gateway trusts (LD_*, NODE_*, BASH_ENV, proxies, CA
// files, …), and on a dedicated topology no model credential of the
// release's provider table (400 AUTH-6; package compile/envpolicy). A
// secretBinding reaches the gateway process only, never a dedicated
// Harness (AUTH-6); the revision records the OpenClaw release whose
// policy applies, and the render applies the same. Admit also refuses a Harness the installation
// approves no version of (409, ADM-3: [Options].HarnessVersions names the
// approved ones; the version labels every workload, LOG-6).
//
// # Approved versions
//
// [New] approves only versions the library knows (400 ADM-3 at
// harnessVersions.<harness>, listing the supported ones): an OpenClaw
// release whose contract it carries ([openclawschema.Releases]) and a
// Codex CLI version whose probe contract the runners are tested against
// ([probe.CodexVersions], the one list of them). A caller's own
// [Options].OpenClawSchema must check the approved OpenClaw release itself
// (its Version equals it). Every topology runs the OpenClaw gateway with
// the admitted document, so Admit refuses every deployment (409 ADM-3 at
// harnessVersions.openclaw) when no OpenClaw release is approved, before
// the document is checked; a codex entry is needed only by revisions
// whose Harness is codex. [Admitter.SensitivePatterns] are the approved
// release's sensitive paths.
//
// # harnessAuth
//
// [ParseBinding] checks a binding's shape first (AUTH-4a, 400 naming the
// offending key and the accepted alternatives); a Binding built as a Go
// value goes through the same [Binding.Validate] at Admit, so both paths
// admit the same bindings. A Secret-backed source outside the Agent's
// tenant namespace is 409 naming the namespace (AUTH-2). [ValidateHarnessAuth] then applies, in order: the
// codex-oauth restriction (400), the execution-mode table ([occkit.CheckTopology],
// RES-11/RES-13, 400 or 409), the missing binding (409, AUTH-1) and the
// bundled Computes' rules (AUTH-2..AUTH-6), returning the [occkit.Projection]: the
// environment variable names each process receives, never values.
// A custom Compute validates through its [drivers.HarnessAuthValidator] with the
// AUTH-7 mapping ([ValidateWith]). [CreateHarnessAuth], [UpdateHarnessAuth]
// and [RequireHarnessAuth] are AUTH-1's create, update and deploy semantics.
//
// # Warnings
//
// Some of what Admit admits will not run as written. Such findings are
// warnings, never refusals: [Revision.Warnings] lists them (each an
// [*occkit.Error] of severity warning, with its rule, path and, for a
// typo, its Suggestion; the same wire form as a refusal), and
// [Revision.Explain] prints them after the Harness decision. They are
// advice of the admission, not part of the record or the digest.
//
//   - Models (RES-3, RES-6): the selected model references (the primary
//     and fallbacks of agents.defaults.model and of each entry's model)
//     are held against the built-in model catalog of the approved OpenClaw
//     release (package compile/modelcatalog; the release of the schema
//     check when none is approved; no check for a release the library
//     does not carry). A model ID its provider's catalog does not list is
//     a warning, with the catalog ID it probably means
//     (anthropic/claude-sonet-4-6 → anthropic/claude-sonnet-4-6); a
//     provider whose models are discovered at run time (openrouter, vllm,
//     …) and a provider the document configures (a key of
//     models.providers or plugins.entries written as the reference's
//     provider reads, trimmed and lower-cased) are not judged. The
//     references and keys are those the resolution read
//     ([resolver.Prepared.SelectedModels]), in document order: the
//     document is not walked again. A provider that is neither built
//     in nor configured is a warning, except that one a typo away from a
//     provider with a built-in catalog ("antropic") is refused, 400 RES-6
//     at the reference with the provider meant as its Suggestion, before
//     any Compute rule (so it is not reported as the Kubernetes api_key
//     conflict of AUTH-2).
//   - Settings the render overrides (CMP-4): the render plan owns the
//     gateway section, so gateway.port (the render passes --port: 18789
//     on Kubernetes, a port of the driver's range on SSH), gateway.bind
//     (lan on Kubernetes, loopback elsewhere), gateway.mode (local) and
//     gateway.auth (token auth the control plane owns) are warnings when
//     the author wrote another value, each naming the value that replaces
//     it. They are not refused: the Configuration is the author's native
//     document, valid for OpenClaw as written, and the same document may
//     run on other Computes; refusing would turn a harmless setting into
//     a deployment failure, while a silent override hides it.
//   - Logging the platform stamps (LOG-1): under platform-owned logging a
//     logging.level or consoleLevel other than the admitted level, a
//     consoleStyle other than json, a logging.redactSensitive and
//     diagnostics.otel.logs other than false are warnings naming what the
//     stamp writes, for the same reason.
//
// Refusals that the primary model must change point at it: where the
// Configuration writes the primary (agents.defaults.model.primary, an
// entry's model; [drivers.AuthFacts].ModelPath), or agents.defaults.model
// when there is none. So a Configuration without a model deployed with an
// embedded api_key binding on Kubernetes is 409 AUTH-2 at
// agents.defaults.model (the key variable is chosen by the model's
// provider, and the rule book makes a binding the Compute cannot honour a
// conflict), and so are a provider without a Kubernetes key variable
// (google) and a non-openai model for dedicated OpenClaw.
//
// # Verification and activation
//
// [Verify] is ADM-5: before any runtime effect, a worker re-checks the
// record's integrity, the Agent and Compute ownership, the authority, the
// logging stamp (LOG-2), the bound SandboxDriver and the harness-auth
// combination against today's installation; any doubt fails closed.
// [Guard] is ADM-6's activation state machine: embedded replacement uses
// Recreate with no automatic rollback, dedicated replacement stops every
// earlier version first, publication precedes retirement, an older retry is
// superseded, and one audit is recorded per durable completion.
//
// # Choices where the rules are silent
//
//   - Refusal paths name the Agent field ([occkit.AgentPath]): harnessAuth,
//     harnessAuth.source.kind, executionMode, id, …; an unknown key of a
//     binding that is a typo of an accepted one ("sorce") carries it as
//     the Suggestion.
//   - The snapshot is the binding's public shape, key-sorted; no driver
//     metadata is added (the Compute identity is frozen beside it).
//   - Embedded OpenClaw with api_key projects OPENAI_API_KEY for provider
//     openai and ANTHROPIC_API_KEY for anthropic; any other provider, or no
//     primary model at all, is 409 (no Kubernetes projection exists).
//   - Dedicated OpenClaw receives only OPENAI_API_KEY (AUTH-2) or an OpenAI
//     placeholder (AUTH-3), so api_key and credential_source need an openai
//     primary model there; another provider or none is 409.
//   - Facts naming dedicated Codex with a primary model outside codex and
//     openai are refused by RES-12 (400), as the resolver would.
//   - credential_source checks, in AUTH-3's order: the gateway (409
//     CREDENTIAL_GATEWAY_NOT_CONFIGURED), the paired SandboxDriver (it must
//     qualify: provisioning and all three facets), then the dedicated
//     topology. Codex gets an OPENAI_API_KEY placeholder and
//     CODEX_LOGIN_MODE=api_key; a codex-oauth source a CODEX_ACCESS_TOKEN
//     placeholder and CODEX_LOGIN_MODE=codex_oauth.
//   - A SandboxDriver is bound to (and transforms) dedicated deployments on
//     Kubernetes only (DRV-2); other deployments ignore it.
//   - A driver's plain error text is never repeated in a refusal: it might
//     carry a value. Gateway-settings refusals keep only the setting's path.
//   - A cancelled context, or one whose deadline passed, is 503
//     DEPENDENCY_UNAVAILABLE whose cause is the context's error
//     (errors.Is context.Canceled or context.DeadlineExceeded). Once the
//     context is done, a failing call-out (the Authorizer, the
//     Configuration reader, the SandboxDriver transform, the harness-auth
//     validator, the gateway-settings check) is reported that way
//     whatever it returned, in Admit, Verify and ValidateWith alike: a
//     timeout never reads as a 403 denial or a driver's refusal
//     ([drivers.Settle]).
//   - A literal credential is refused under ADM-7 (freezing keeps the
//     reference, never Secret bytes), not ADM-3 (whose "references only"
//     is about the harnessAuth snapshot); its refusal keeps file, line and
//     column but never the source line, whatever masking a position
//     applies, since that line holds the credential.
//   - A reference nothing binds is a Configuration error (400, DOC-4: a
//     missing variable names the variable), not a Compute conflict: the
//     Configuration's own secretBindings or env.vars are what is missing.
//   - With DisableOpenClawSchema, the pinned release's sensitive paths and
//     environment policy still apply, as a floor.
package admission
