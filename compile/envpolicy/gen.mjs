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
const files = fs.readdirSync(dist).filter((f) => f.endsWith(".mjs"));
const text = new Map();
const read = (f) => {
  if (!text.has(f)) text.set(f, fs.readFileSync(path.join(dist, f), "utf8"));
  return text.get(f);
};

function fail(msg) {
  console.error(msg);
  process.exit(1);
}

// The one module whose text includes marker. managed-handoff-runtime.mjs
// is a self-contained bundle that repeats other modules: it is not read.
function moduleWith(marker) {
  const found = files.filter((f) => f !== "managed-handoff-runtime.mjs" && read(f).includes(marker));
  if (found.length !== 1) fail(`expected one module with ${JSON.stringify(marker)}, found ${found.length}`);
  return found[0];
}

// The exported function named name of the module that defines it.
async function exported(name) {
  const f = moduleWith(`function ${name}(`);
  const mod = await import(path.join(dist, f));
  const fn = Object.values(mod).find((v) => typeof v === "function" && v.name === name);
  if (!fn) fail(`${f} does not export ${name}`);
  return fn;
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
const hostFile = moduleWith("var host_env_security_policy_default = {");
const policy = literal(hostFile, "host_env_security_policy_default");
const cargo = read(hostFile).match(/CARGO_TARGET_EXECUTABLE_OVERRIDE_ENV_KEY = \/(.+?)\/;/);
if (!cargo) fail("no CARGO_TARGET_EXECUTABLE_OVERRIDE_ENV_KEY");
const upper = (xs) => sorted((xs ?? []).map((x) => x.toUpperCase()));
const hostEnv = {
  blockedKeys: upper(policy.blockedEverywhereKeys),
  blockedPrefixes: upper(policy.blockedPrefixes),
  blockedOverrideKeys: upper(policy.blockedOverrideOnlyKeys),
  blockedOverridePrefixes: upper(policy.blockedOverridePrefixes),
  blockedOverridePattern: cargo[1],
};

// The extra names env.vars may not set.
const cfgFile = moduleWith("function isBlockedConfigEnvVar(");
const cfgBody = read(cfgFile).match(/function isBlockedConfigEnvVar\(key\) \{([\s\S]*?)\n\}/);
if (!cfgBody) fail("no isBlockedConfigEnvVar body");
const configEnvBlocked = sorted([...cfgBody[1].matchAll(/=== "([A-Z0-9_]+)"/g)].map((m) => m[1]));
if (configEnvBlocked.length === 0) fail("isBlockedConfigEnvVar names no variable");

// The workspace .env policy.
const dotFile = moduleWith("const BLOCKED_PROVIDER_AUTH_WORKSPACE_DOTENV_KEYS = [");
const providerAuthKeys = literal(dotFile, "BLOCKED_PROVIDER_AUTH_WORKSPACE_DOTENV_KEYS");
const workspaceDotenv = {
  providerAuthKeys: sorted(providerAuthKeys),
  keys: sorted(literal(dotFile, "BLOCKED_WORKSPACE_DOTENV_KEYS")),
  prefixes: sorted(literal(dotFile, "BLOCKED_WORKSPACE_DOTENV_PREFIXES")),
  suffixes: sorted(literal(dotFile, "BLOCKED_WORKSPACE_DOTENV_SUFFIXES")),
  tokenSequences: literal(dotFile, "BLOCKED_WORKSPACE_DOTENV_TOKEN_SEQUENCES").map((s) => s.join("_")).sort(),
};

// The provider credential table.
const candidates = await exported("resolveProviderAuthEnvVarCandidatesCore");
const table = {};
const add = (id, names) => {
  if (!Array.isArray(names) || names.length === 0) return;
  table[id] = sorted([...(table[id] ?? []), ...names]);
};
for (const [id, names] of Object.entries(candidates())) add(id, names);
const envFile = moduleWith("function resolveProviderAuthEnvVarCandidatesCore(");
for (const [id, names] of Object.entries(literal(envFile, "CORE_PROVIDER_SETUP_ENV_VAR_OVERRIDES"))) add(id, names);
const catalogFile = moduleWith("//#region scripts/lib/official-external-provider-catalog.json");
const catalog = (await import(path.join(dist, catalogFile))).t;
const entries = Array.isArray(catalog) ? catalog : catalog?.entries ?? catalog?.plugins;
if (!Array.isArray(entries)) fail(`${catalogFile} exports no catalog list`);
for (const e of entries) for (const p of e.openclaw?.providers ?? []) add(p.id, p.envVars);
const providerAuthEnv = Object.fromEntries(Object.keys(table).sort().map((k) => [k, table[k]]));

// AWS SDK auth.
const awsFile = moduleWith("const AWS_BEARER_ENV = ");
const awsSdkAuthEnv = sorted([...read(awsFile).matchAll(/const AWS_[A-Z_]+_ENV = "([A-Z0-9_]+)";/g)].map((m) => m[1]));

// Non-secret markers: the core ones and the bundled plugins', each
// confirmed by OpenClaw's own predicate.
const isNonSecret = await exported("isNonSecretApiKeyMarker");
const markerFile = moduleWith("const CORE_NON_SECRET_API_KEY_MARKERS = [");
const consts = {};
for (const m of read(markerFile).matchAll(/const ([A-Z_]+) = "([^"]+)";/g)) consts[m[1]] = m[2];
const credFile = moduleWith("const NON_ENV_SECRETREF_MARKER = ");
for (const m of read(credFile).matchAll(/const ([A-Z_]+) = "([^"]+)";/g)) consts[m[1]] = m[2];
const coreNames = read(markerFile).match(/const CORE_NON_SECRET_API_KEY_MARKERS = \[([\s\S]*?)\];/)[1]
  .split(",").map((s) => s.trim()).filter(Boolean);
const markers = coreNames.map((n) => consts[n] ?? fail(`unknown marker constant ${n}`));
if (consts.MINIMAX_OAUTH_MARKER) markers.push(consts.MINIMAX_OAUTH_MARKER);
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
