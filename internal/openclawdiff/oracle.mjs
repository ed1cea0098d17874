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
  resolveAgentHarnessSelectionDecision: lazy(() => exported("resolveAgentHarnessSelectionDecision")),
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

// ---- key order -------------------------------------------------------
// reorder returns a deep copy of v with every object's keys in the order
// cmp gives (arrays keep theirs). The policy and selection ops answer for
// the authored order and for two permutations, so a reader can tell when
// OpenClaw's answer depends on key order.
function reorder(v, cmp) {
  if (Array.isArray(v)) return v.map((x) => reorder(x, cmp));
  if (v === null || typeof v !== "object") return v;
  const out = {};
  for (const k of Object.keys(v).sort(cmp)) out[k] = reorder(v[k], cmp);
  return out;
}
const asc = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const desc = (a, b) => asc(b, a);

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

async function policyOnce(it, config) {
  const r = (await fn.resolveModelRuntimePolicy())({
    config,
    provider: it.provider,
    modelId: it.modelId,
    agentId: it.agentId || undefined,
  });
  return { id: r.policy?.id ?? null, source: r.source ?? null };
}

// Without it.perm only the authored order is answered (the permutations
// are asked again for the inputs that disagree).
async function opPolicy(it) {
  const r = await policyOnce(it, it.config);
  if (!it.perm) return { r, asc: r, desc: r };
  return {
    r,
    asc: await policyOnce(it, reorder(it.config, asc)),
    desc: await policyOnce(it, reorder(it.config, desc)),
  };
}

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

async function selectOnce(it, config) {
  installHarnesses(it.harnesses);
  try {
    const d = (await fn.resolveAgentHarnessSelectionDecision())({
      config,
      provider: it.provider,
      modelId: it.modelId,
      agentId: it.agentId || undefined,
      ...(it.lockedOwner ? { agentHarnessId: it.lockedOwner } : {}),
      ...(it.override ? { agentHarnessRuntimeOverride: it.override } : {}),
    });
    return { selected: d.selectedHarnessId, reason: d.selectedReason, policy: d.policy?.runtime ?? null };
  } catch (e) {
    return { error: String(e?.message ?? e).slice(0, 200), stack: process.env.ORACLE_STACK ? String(e?.stack) : undefined };
  }
}

async function opSelect(it) {
  const r = await selectOnce(it, it.config);
  if (!it.perm) return { r, asc: r, desc: r };
  return {
    r,
    asc: await selectOnce(it, reorder(it.config, asc)),
    desc: await selectOnce(it, reorder(it.config, desc)),
  };
}

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

async function withoutMigrations(names, run) {
  const list = await migrationList();
  const saved = [];
  for (const n of names) {
    const i = list.findIndex((m) => m.id === SKIPPABLE[n]);
    if (i < 0) throw new Error(`openclaw: doctor migration ${SKIPPABLE[n]} not found`);
    saved.push([i, list[i]]);
    list[i] = { ...list[i], apply: () => {} };
  }
  try {
    return await run();
  } finally {
    for (const [i, m] of saved) list[i] = m;
  }
}

// Without it.variants only doctor itself answers; each variant
// {order, skip} runs doctor again on a key order (authored, asc, desc)
// without the named skippable migrations.
async function opDoctor(it) {
  const full = await doctorOnce(it.config);
  if (!full.ok || !it.variants) return full;
  full.variants = [];
  for (const v of it.variants) {
    const config = v.order === "asc" ? reorder(it.config, asc) : v.order === "desc" ? reorder(it.config, desc) : it.config;
    const r = await withoutMigrations(v.skip, () => doctorOnce(config));
    full.variants.push({ order: v.order, skip: v.skip, ok: r.ok, config: r.config });
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
