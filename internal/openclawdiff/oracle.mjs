// oracle.mjs calls the real OpenClaw functions for the differential tier.
//
// Usage: node oracle.mjs <openclaw dist dir> <batch.json> <answers.json>
//
// The batch is one JSON array of items {op, ...}; the answer is one JSON
// array with one answer per item, in order. Nothing is read from the
// network; files are read only for the "load" op, from the paths the
// caller wrote.
//
// OpenClaw's exports are minified, so functions are found by name: the
// modules defining `function NAME(` are located by scanning dist/*.mjs at
// run time, imported, and the export whose .name is NAME is taken. No
// hashed file name is written here.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dist, inPath, outPath] = process.argv.slice(2);
if (!dist || !inPath || !outPath) {
  console.error("usage: node oracle.mjs <openclaw dist dir> <batch.json> <answers.json>");
  process.exit(2);
}

// Everything below runs with a scrubbed, private environment: OpenClaw
// reads some process.env switches (QA overrides, state dirs).
const home = fs.mkdtempSync(path.join(os.tmpdir(), "occkit-oracle-home-"));
for (const k of Object.keys(process.env)) {
  if (k.startsWith("OPENCLAW_") || k === "HOME") delete process.env[k];
}
process.env.HOME = home;
process.env.OPENCLAW_STATE_DIR = path.join(home, "state");
process.env.OPENCLAW_CONFIG_PATH = path.join(home, "openclaw.json");

const files = fs.readdirSync(dist).filter((f) => f.endsWith(".mjs")).sort();
const sources = new Map();
function source(f) {
  let s = sources.get(f);
  if (s === undefined) {
    s = fs.readFileSync(path.join(dist, f), "utf8");
    sources.set(f, s);
  }
  return s;
}
function modulesDefining(name) {
  const needle = `function ${name}(`;
  return files.filter((f) => source(f).includes(needle));
}

async function exported(name) {
  for (const f of modulesDefining(name)) {
    const mod = await import(pathToFileURL(path.join(dist, f)).href);
    for (const v of Object.values(mod)) {
      if (typeof v === "function" && v.name === name) return v;
    }
  }
  throw new Error(`openclaw: no module exports function ${name}`);
}

// internal returns a module-local function that its module does not
// export: the module's text is copied to a private file with its relative
// imports made absolute and one export added. The code run is OpenClaw's.
async function internal(name) {
  const found = modulesDefining(name);
  if (found.length === 0) throw new Error(`openclaw: no module defines function ${name}`);
  const f = found[0];
  const base = pathToFileURL(path.join(dist, "/")).href;
  let text = source(f).replace(/((?:from|import)\s*\(?\s*)"\.\/([^"]+)"/g, (_, pre, rel) => `${pre}"${base}${rel}"`);
  text += `\nexport { ${name} as __occkit_${name} };\n`;
  const copy = path.join(home, `internal-${name}.mjs`);
  fs.writeFileSync(copy, text);
  const mod = await import(pathToFileURL(copy).href);
  return mod[`__occkit_${name}`];
}

const lazy = (load) => {
  let p;
  return () => (p ??= load());
};

const fn = {
  splitTrailingAuthProfile: lazy(() => exported("splitTrailingAuthProfile")),
  parseModelCatalogRef: lazy(() => exported("parseModelCatalogRef")),
  parseModelRef: lazy(() => exported("parseModelRef")),
  normalizeModelRef: lazy(() => exported("normalizeModelRef")),
  resolveModelRuntimePolicy: lazy(() => exported("resolveModelRuntimePolicy")),
  normalizeOptionalAgentRuntimeId: lazy(() => exported("normalizeOptionalAgentRuntimeId")),
  isDefaultAgentRuntimeId: lazy(() => exported("isDefaultAgentRuntimeId")),
  resolveAgentHarnessSelectionDecision: lazy(() => exported("resolveAgentHarnessSelectionDecision")),
  isAgentRuntimeModelParam: lazy(() => exported("isAgentRuntimeModelParam")),
  parseJsonWithJson5Fallback: lazy(() => exported("parseJsonWithJson5Fallback")),
  resolveConfigIncludes: lazy(() => exported("resolveConfigIncludes")),
  resolveConfigEnvVars: lazy(() => exported("resolveConfigEnvVars")),
  resolveConfigForRead: lazy(() => exported("resolveConfigForRead")),
  normalizeZaiEnv: lazy(() => exported("normalizeZaiEnv")),
  isConfigRuntimeEnvVarAllowed: lazy(() => exported("isConfigRuntimeEnvVarAllowed")),
  loadHostEnvSecurityPolicy: lazy(() => internal("loadHostEnvSecurityPolicy")),
  applyLegacyDoctorMigrations: lazy(() => exported("applyLegacyDoctorMigrations")),
  collectBlockedLegacyOpenAICodexProviderPlan: lazy(() => exported("collectBlockedLegacyOpenAICodexProviderPlan")),
  normalizeCompatibilityConfigValues: lazy(() => internal("normalizeCompatibilityConfigValues")),
};

// ---- variants ------------------------------------------------------------
// An item may carry variants: each is a partial item (a name plus the
// fields it replaces: config, override, lockedOwner, ...) that the same
// op answers again. The Go side builds the variants a divergence row
// needs (the key order occkit's ranking gives, the input without an
// ignored override, ...), so a row checks that OpenClaw, on the input its
// reason describes, gives occkit's answer.
async function withVariants(it, once) {
  const r = await once(it);
  if (!Array.isArray(it.variants)) return { r };
  const variants = {};
  for (const v of it.variants) variants[v.name] = await once({ ...it, ...v, variants: undefined });
  return { r, variants };
}

// ---- ops ---------------------------------------------------------------
async function opRef(it) {
  const split = (await fn.splitTrailingAuthProfile())(it.raw);
  const profile = split.profile ?? "";
  const strictParsed = (await fn.parseModelCatalogRef())(split.model);
  const strict = strictParsed ? { provider: strictParsed.provider, id: strictParsed.modelId, profile } : null;
  const opts = { allowManifestNormalization: false, allowPluginNormalization: false };
  const len = (await fn.parseModelRef())(split.model, it.defaultProvider, opts);
  const lenient = len && len.provider && len.model ? { provider: len.provider, id: len.model, profile } : null;
  let occNorm = null;
  if (it.occ) {
    const n = (await fn.normalizeModelRef())(it.occ.provider, it.occ.id, opts);
    occNorm = { provider: n.provider, id: n.model, profile: it.occ.profile ?? "" };
  }
  return { strict, lenient, occNorm };
}

// OpenClaw's own reading of a policy id: normalizeOptionalAgentRuntimeId,
// then isDefaultAgentRuntimeId for "no runtime chosen", as its harness
// policy reads it. occkit's normalization is never applied to an answer.
async function runtimeOf(id) {
  const n = (await fn.normalizeOptionalAgentRuntimeId())(id);
  return (await fn.isDefaultAgentRuntimeId())(n) ? "auto" : n;
}

async function policyOnce(it) {
  const r = (await fn.resolveModelRuntimePolicy())({
    config: it.config,
    provider: it.provider,
    modelId: it.modelId,
    agentId: it.agentId || undefined,
  });
  const id = r.policy?.id ?? null;
  return { id, runtime: id === null ? null : await runtimeOf(id), source: r.source ?? null };
}

const opPolicy = (it) => withVariants(it, policyOnce);

// Harness plugins are data: both sides implement the same rules. A
// harness supports a route when its provider list names the provider
// ("*" = any) and the model ID does not start with one of its refused
// prefixes; otherwise it declares the OpenClaw fallback when told so.
function makeHarness(h) {
  return {
    id: h.id,
    label: h.id,
    pluginId: `plugin-${h.id}`,
    ...(h.autoProviders === null ? {} : { autoSelection: { providerIds: h.autoProviders } }),
    supports(ctx) {
      const provider = String(ctx.provider ?? "").trim().toLowerCase();
      const model = String(ctx.modelId ?? "");
      const names = h.supportsProviders.includes("*") || h.supportsProviders.includes(provider);
      const refused = h.refusePrefixes.some((p) => model.startsWith(p));
      if (names && !refused) return { supported: true, priority: h.priority };
      return h.fallback
        ? { supported: false, fallbackRuntime: "openclaw", reason: "declares openclaw fallback" }
        : { supported: false, reason: "route not supported" };
    },
  };
}

const REGISTRY_STATE = Symbol.for("openclaw.pluginRegistryState");
function installHarnesses(hs) {
  const registry = {
    agentHarnesses: hs.map((h) => ({ pluginId: `plugin-${h.id}`, harness: makeHarness(h) })),
    providers: [],
    // The CLI backends the bundled anthropic and google plugins register
    // (SEL-7): a CLI runtime alias is valid only for its own provider.
    cliBackends: [
      { pluginId: "anthropic", backend: { id: "claude-cli", modelProvider: "anthropic" } },
      { pluginId: "google", backend: { id: "google-gemini-cli", modelProvider: "google" } },
    ],
  };
  globalThis[REGISTRY_STATE] = { ...(globalThis[REGISTRY_STATE] ?? {}), activeRegistry: registry };
}

// dropControls returns config without the runtime controls OpenClaw
// itself recognises (isAgentRuntimeModelParam) in the params of every
// provider, catalog row, agent scope and models map entry.
async function dropControls(config) {
  const isControl = await fn.isAgentRuntimeModelParam();
  const c = structuredClone(config);
  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const strip = (params) => {
    if (!isObject(params)) return;
    for (const k of Object.keys(params)) if (isControl(k, params[k])) delete params[k];
  };
  for (const p of Object.values(isObject(c.models?.providers) ? c.models.providers : {})) {
    if (!isObject(p)) continue;
    strip(p.params);
    if (Array.isArray(p.models)) for (const r of p.models) if (isObject(r)) strip(r.params);
  }
  const agents = isObject(c.agents) ? c.agents : {};
  const scopes = [agents.defaults, ...Object.values(isObject(agents.entries) ? agents.entries : {}), ...(Array.isArray(agents.list) ? agents.list : [])];
  for (const s of scopes) {
    if (!isObject(s)) continue;
    strip(s.params);
    for (const m of Object.values(isObject(s.models) ? s.models : {})) if (isObject(m)) strip(m.params);
  }
  return c;
}

async function selectOnce(it) {
  installHarnesses(it.harnesses);
  try {
    const d = (await fn.resolveAgentHarnessSelectionDecision())({
      config: it.dropControls ? await dropControls(it.config) : it.config,
      provider: it.provider,
      modelId: it.modelId,
      agentId: it.agentId || undefined,
      ...(it.lockedOwner ? { agentHarnessId: it.lockedOwner } : {}),
      ...(it.override ? { agentHarnessRuntimeOverride: it.override } : {}),
    });
    return {
      selected: d.selectedHarnessId,
      reason: d.selectedReason,
      source: d.policy?.runtimeSource ?? null,
    };
  } catch (e) {
    return { error: String(e?.message ?? e).slice(0, 200), stack: process.env.ORACLE_STACK ? String(e?.stack) : undefined };
  }
}

const opSelect = (it) => withVariants(it, selectOnce);

// opLoad runs the loader's steps as the gateway does: parse, includes,
// then resolveConfigForRead (the document's env section applied to the
// environment, then substitution with missing variables collected) on an
// environment normalized as the CLI's pre-bootstrap normalizes
// process.env.
async function opLoad(it) {
  try {
    const raw = fs.readFileSync(it.path, "utf8");
    const parsed = (await fn.parseJsonWithJson5Fallback())(raw);
    const included = (await fn.resolveConfigIncludes())(parsed, it.path);
    const env = { ...it.env };
    (await fn.normalizeZaiEnv())(env);
    const r = (await fn.resolveConfigForRead())(included, env, {});
    const missing = r.envWarnings.map((w) => String(w?.varName ?? w));
    return { ok: true, value: r.resolvedConfigRaw, missing };
  } catch (e) {
    return { ok: false, error: `${e?.name ?? "Error"}: ${String(e?.message ?? e).slice(0, 200)}` };
  }
}

// opEnvNames asks whether OpenClaw lets a configuration's env section set
// each name (with a non-blank value holding no reference).
// With it.policy it also returns the names and prefixes of the host
// environment security policy those refusals come from.
async function opEnvNames(it) {
  const allowed = await fn.isConfigRuntimeEnvVarAllowed();
  const out = { allowed: it.names.map((n) => allowed(n, "v")) };
  if (it.policy) {
    const p = (await fn.loadHostEnvSecurityPolicy())();
    out.keys = [...p.blockedKeys, ...p.blockedOverrideKeys];
    out.prefixes = [...p.blockedPrefixes, ...p.blockedOverridePrefixes];
  }
  return out;
}

// Doctor's migration list, to run doctor again without the migrations
// that lie outside runtime repair (divergence classes): found as the
// exported array holding migrations with these ids.
const SKIPPABLE = {
  catalog: "models.canonical-model-refs",
  implicitPrimary: "runtime.utility-model-separation",
};
const migrationList = lazy(async () => {
  for (const f of modulesDefining("migrateLegacyRuntimeModelRef")) {
    const mod = await import(pathToFileURL(path.join(dist, f)).href);
    for (const v of Object.values(mod)) {
      if (Array.isArray(v) && v.some((m) => m?.id === SKIPPABLE.catalog)) return v;
    }
  }
  throw new Error("openclaw: doctor migration list not found");
});

// withMigrations runs doctor with some skippable migrations replaced:
// replace maps a SKIPPABLE name to the apply function to run in its place.
async function withMigrations(replace, run) {
  const list = await migrationList();
  const saved = [];
  for (const [n, apply] of Object.entries(replace)) {
    const i = list.findIndex((m) => m.id === SKIPPABLE[n]);
    if (i < 0) throw new Error(`openclaw: doctor migration ${SKIPPABLE[n]} not found`);
    saved.push([i, list[i]]);
    list[i] = { ...list[i], apply };
  }
  try {
    return await run();
  } finally {
    for (const [i, m] of saved) list[i] = m;
  }
}

// syntaxOnlyCatalog is doctor's catalog migration (canonical model refs)
// with its catalog knowledge taken out: the same walk over every place a
// model ref is recognised, with the same merge of map keys that become
// one (OpenClaw's rewriteModelRefs), but a normalizer that only respells
// a ref without the white space splitTrailingAuthProfile drops (around the
// ref and around the profile `@`). Retired-ID renames and Google model
// aliases are left out, and so are catalog row ids (rewriteModelRefs
// rewrites those only with the full normalizer).
const syntaxOnlyCatalog = lazy(async () => {
  const rewrite = await exported("rewriteModelRefs");
  const split = await fn.splitTrailingAuthProfile();
  const respell = (value) => {
    const trimmed = value.trim();
    if (!trimmed) return value === trimmed ? null : trimmed;
    const s = split(trimmed);
    const out = s.profile ? `${s.model}@${s.profile}` : s.model;
    return out === value ? null : out;
  };
  return (raw, changes) => {
    const r = rewrite(raw, "config", changes, respell);
    if (!r.changed || r.value === null || typeof r.value !== "object" || Array.isArray(r.value)) return;
    for (const k of Object.keys(raw)) delete raw[k];
    for (const [k, v] of Object.entries(r.value)) {
      Object.defineProperty(raw, k, { configurable: true, enumerable: true, value: v, writable: true });
    }
  };
});

// Without it.variants only doctor itself answers; each variant {name,
// config, skip, syntaxOnly} runs doctor again on its own configuration
// (the key order occkit's merge gives, built by the Go side), with the
// named skippable migrations doing nothing and, with syntaxOnly, the
// catalog migration reduced to syntaxOnlyCatalog.
async function opDoctor(it) {
  const full = await doctorOnce(it.config);
  if (!full.ok) return full;
  if (Array.isArray(it.variants)) {
    full.variants = {};
    for (const v of it.variants) {
      const replace = {};
      for (const n of v.skip ?? []) replace[n] = () => {};
      if (v.syntaxOnly) replace.catalog = await syntaxOnlyCatalog();
      const r = await withMigrations(replace, () => doctorOnce(v.config ?? it.config));
      full.variants[v.name] = { ok: r.ok, config: r.config };
    }
  }
  return full;
}

async function doctorOnce(config) {
  try {
    const cfg = structuredClone(config);
    const legacy = (await fn.applyLegacyDoctorMigrations())(cfg, { pluginContracts: false });
    const candidate = legacy.next ?? cfg;
    const plan = (await fn.collectBlockedLegacyOpenAICodexProviderPlan())(candidate);
    const res = (await fn.normalizeCompatibilityConfigValues())(candidate, {
      blockedModelIdentities: new Set(plan.blockedModelIdentities ?? []),
      sourceRaw: config,
    });
    return { ok: true, config: res.config, changes: [...(legacy.changes ?? []), ...(res.changes ?? [])] };
  } catch (e) {
    return { ok: false, error: String(e?.message ?? e).slice(0, 300) };
  }
}

const ops = { ref: opRef, policy: opPolicy, select: opSelect, load: opLoad, envnames: opEnvNames, doctor: opDoctor };

const input = JSON.parse(fs.readFileSync(inPath, "utf8"));
const out = [];
for (const it of input) {
  const op = ops[it.op];
  if (!op) {
    out.push({ fatal: `unknown op ${it.op}` });
    continue;
  }
  try {
    out.push(await op(it));
  } catch (e) {
    out.push({ fatal: String(e?.stack ?? e).slice(0, 500) });
  }
}
fs.writeFileSync(outPath, JSON.stringify(out));
fs.rmSync(home, { recursive: true, force: true });
