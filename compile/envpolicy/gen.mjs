// gen.mjs writes the environment-variable policy of one OpenClaw release,
// read from that release's own package, as the data this package embeds.
// Run it with the node that ships beside the package (see doc.go):
//
//   $OCCKIT_OPENCLAW_DIR/node/bin/node gen.mjs $OCCKIT_OPENCLAW_DIR OUTDIR
//
// It writes OUTDIR/<version>.json, compact key order, sorted lists:
//
//   release              the package version
//   hostEnv              src/infra/host-env-security-policy.json: the names
//                        OpenClaw never passes to a process it starts
//                        (blockedKeys, blockedPrefixes) or lets a caller
//                        override (blockedOverrideKeys, blockedOverridePrefixes),
//                        and the CARGO_TARGET_*_LINKER|RUNNER pattern
//   configEnvBlocked     names env.vars may not set beyond hostEnv
//                        (isBlockedConfigEnvVar)
//   workspaceDotenv      what OpenClaw refuses to read from an untrusted
//                        workspace .env (src/infra/dotenv.ts): keys,
//                        prefixes, suffixes and token sequences, and its
//                        static list of provider auth keys
//   providerAuthEnv      provider id -> the environment variables OpenClaw
//                        reads its credential from: the bundled plugins'
//                        manifests and core table
//                        (resolveProviderAuthEnvVarCandidatesCore), the
//                        setup overrides and the official external
//                        provider catalog
//   awsSdkAuthEnv        the AWS SDK variables OpenClaw takes as model auth
//   nonSecretMarkers     values OpenClaw reads as "no key here" where a
//                        key could be (ollama-local, secretref-managed, …),
//                        each confirmed with isNonSecretApiKeyMarker
//
// Module files carry a content hash in their names, so each is found by
// a function or constant it defines.
import fs from "node:fs";
import path from "node:path";

const [root, out] = process.argv.slice(2);
if (!root || !out) {
  console.error("usage: node gen.mjs OPENCLAW_DIR OUTDIR");
  process.exit(2);
}
const pkg = path.join(root, "node_modules", "openclaw");
const dist = path.join(pkg, "dist");
// Older releases ship .js modules where newer ones ship .mjs.
const files = fs.readdirSync(dist).filter((f) => f.endsWith(".mjs") || f.endsWith(".js"));
const text = new Map();
const read = (f) => {
  if (!text.has(f)) text.set(f, fs.readFileSync(path.join(dist, f), "utf8"));
  return text.get(f);
};

function fail(msg) {
  console.error(msg);
  process.exit(1);
}

// modulesWith lists the modules whose text includes marker; at least one
// must. Self-contained bundles (managed-handoff-runtime.mjs, and in some
// releases node-host-launcher-bootstrap.js) repeat other modules, so a
// marker may be in several.
function modulesWith(marker) {
  const found = files.filter((f) => read(f).includes(marker));
  if (found.length === 0) fail(`no module with ${JSON.stringify(marker)}`);
  return found;
}

// agreed is extract(f) for every module f holding marker, which must all
// give the same value: a copy that differs is a module this script does
// not understand.
async function agreed(marker, extract) {
  let first, firstFile;
  for (const f of modulesWith(marker)) {
    const v = await extract(f);
    if (firstFile === undefined) {
      [first, firstFile] = [v, f];
    } else if (JSON.stringify(v) !== JSON.stringify(first)) {
      fail(`${firstFile} and ${f} disagree on ${JSON.stringify(marker)}`);
    }
  }
  return first;
}

// The function named name as the modules that define and export it
// export it (older releases name the provider table's function without
// the Core suffix), or undefined.
async function exported(name) {
  for (const f of files.filter((f) => read(f).includes(`function ${name}(`))) {
    const mod = await import(path.join(dist, f));
    const fn = Object.values(mod).find((v) => typeof v === "function" && v.name === name);
    if (fn) return fn;
  }
  return undefined;
}

// The value of a JavaScript literal (array or object) assigned to name in
// module f: the text from the first bracket after "name =" to its match.
function literal(f, name) {
  const src = read(f);
  const at = src.search(new RegExp(`\\b${name}\\s*=\\s*`));
  if (at < 0) fail(`${f} does not assign ${name}`);
  let i = src.indexOf("=", at) + 1;
  while (/\s/.test(src[i])) i++;
  // "new Set([" wraps an array.
  if (src.startsWith("/* @__PURE__ */ new Set(", i)) i = src.indexOf("[", i);
  const open = src[i];
  const close = open === "[" ? "]" : open === "{" ? "}" : fail(`${name} is not a literal`);
  let depth = 0, j = i, quote = null;
  for (; j < src.length; j++) {
    const c = src[j];
    if (quote) {
      if (c === "\\") j++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) break;
  }
  const body = src.slice(i, j + 1).replace(/\.\.\.[A-Z_]+,?/g, "");
  return new Function(`return (${body});`)();
}

const sorted = (xs) => [...new Set(xs)].sort();

// Host environment policy.
const hostMarker = "var host_env_security_policy_default = {";
const policy = await agreed(hostMarker, (f) => literal(f, "host_env_security_policy_default"));
const cargo = await agreed("CARGO_TARGET_EXECUTABLE_OVERRIDE_ENV_KEY = /", (f) => {
  const m = read(f).match(/CARGO_TARGET_EXECUTABLE_OVERRIDE_ENV_KEY = \/(.+?)\/;/);
  return m ? m[1] : fail(`${f}: no CARGO_TARGET_EXECUTABLE_OVERRIDE_ENV_KEY`);
});
const upper = (xs) => sorted((xs ?? []).map((x) => x.toUpperCase()));
const hostEnv = {
  blockedKeys: upper(policy.blockedEverywhereKeys),
  blockedPrefixes: upper(policy.blockedPrefixes),
  blockedOverrideKeys: upper(policy.blockedOverrideOnlyKeys),
  blockedOverridePrefixes: upper(policy.blockedOverridePrefixes),
  blockedOverridePattern: cargo,
};

// The extra names env.vars may not set.
const configEnvBlocked = await agreed("function isBlockedConfigEnvVar(", (f) => {
  const body = read(f).match(/function isBlockedConfigEnvVar\(key\) \{([\s\S]*?)\n\}/);
  if (!body) fail(`${f}: no isBlockedConfigEnvVar body`);
  return sorted([...body[1].matchAll(/=== "([A-Z0-9_]+)"/g)].map((m) => m[1]));
});
if (configEnvBlocked.length === 0) fail("isBlockedConfigEnvVar names no variable");

// The workspace .env policy.
const workspaceDotenv = await agreed("const BLOCKED_PROVIDER_AUTH_WORKSPACE_DOTENV_KEYS = [", (f) => ({
  providerAuthKeys: sorted(literal(f, "BLOCKED_PROVIDER_AUTH_WORKSPACE_DOTENV_KEYS")),
  keys: sorted(literal(f, "BLOCKED_WORKSPACE_DOTENV_KEYS")),
  prefixes: sorted(literal(f, "BLOCKED_WORKSPACE_DOTENV_PREFIXES")),
  suffixes: sorted(literal(f, "BLOCKED_WORKSPACE_DOTENV_SUFFIXES")),
  tokenSequences: literal(f, "BLOCKED_WORKSPACE_DOTENV_TOKEN_SEQUENCES").map((s) => s.join("_")).sort(),
}));

// The provider credential table: resolveProviderAuthEnvVarCandidatesCore
// where a release has it (resolveProviderAuthEnvVarCandidates wraps it),
// resolveProviderAuthEnvVarCandidates in older releases.
const candidates = (await exported("resolveProviderAuthEnvVarCandidatesCore")) ??
  (await exported("resolveProviderAuthEnvVarCandidates")) ?? fail("no module exports the provider auth env table");
const table = {};
const add = (id, names) => {
  if (!Array.isArray(names) || names.length === 0) return;
  table[id] = sorted([...(table[id] ?? []), ...names]);
};
for (const [id, names] of Object.entries(candidates())) add(id, names);
const overrides = await agreed("CORE_PROVIDER_SETUP_ENV_VAR_OVERRIDES =", (f) => literal(f, "CORE_PROVIDER_SETUP_ENV_VAR_OVERRIDES"));
for (const [id, names] of Object.entries(overrides)) add(id, names);
// The official external provider catalog (its JSON, bundled).
const catalog = await agreed("var official_external_provider_catalog_default = {", (f) => literal(f, "official_external_provider_catalog_default"));
const catalogEntries = Array.isArray(catalog) ? catalog : catalog?.entries ?? catalog?.plugins;
if (!Array.isArray(catalogEntries)) fail("the official external provider catalog holds no list");
for (const e of catalogEntries) for (const p of e.openclaw?.providers ?? []) add(p.id, p.envVars);
const providerAuthEnv = Object.fromEntries(Object.keys(table).sort().map((k) => [k, table[k]]));

// AWS SDK auth.
const awsSdkAuthEnv = await agreed("const AWS_BEARER_ENV = ", (f) =>
  sorted([...read(f).matchAll(/const AWS_[A-Z_]+_ENV = "([A-Z0-9_]+)";/g)].map((m) => m[1])));

// Non-secret markers: the core ones and the bundled plugins', each
// confirmed by OpenClaw's own predicate.
const isNonSecret = (await exported("isNonSecretApiKeyMarker")) ?? fail("no module exports isNonSecretApiKeyMarker");
const constsOf = (f) => Object.fromEntries([...read(f).matchAll(/const ([A-Z_]+) = "([^"]+)";/g)].map((m) => [m[1], m[2]]));
const credConsts = await agreed("const NON_ENV_SECRETREF_MARKER = ", constsOf);
const markers = await agreed("const CORE_NON_SECRET_API_KEY_MARKERS = [", (f) => {
  const consts = { ...constsOf(f), ...credConsts };
  const names = read(f).match(/const CORE_NON_SECRET_API_KEY_MARKERS = \[([\s\S]*?)\];/)[1]
    .split(",").map((s) => s.trim()).filter(Boolean);
  const out = names.map((n) => consts[n] ?? fail(`unknown marker constant ${n}`));
  if (consts.MINIMAX_OAUTH_MARKER) out.push(consts.MINIMAX_OAUTH_MARKER);
  return out;
});
const extDir = path.join(dist, "extensions");
for (const d of fs.readdirSync(extDir)) {
  const f = path.join(extDir, d, "openclaw.plugin.json");
  if (!fs.existsSync(f)) continue;
  const m = JSON.parse(fs.readFileSync(f, "utf8"));
  for (const v of m.nonSecretAuthMarkers ?? []) markers.push(v);
}
for (const v of markers) if (!isNonSecret(v)) fail(`isNonSecretApiKeyMarker refuses ${v}`);
const nonSecretMarkers = sorted(markers);

const manifest = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8"));
const data = {
  release: manifest.version,
  hostEnv,
  configEnvBlocked,
  workspaceDotenv,
  providerAuthEnv,
  awsSdkAuthEnv,
  nonSecretMarkers,
};
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, `${manifest.version}.json`), JSON.stringify(data, null, 1) + "\n");
