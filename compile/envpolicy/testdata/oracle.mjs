// oracle.mjs answers, with the installed OpenClaw's own functions, how it
// treats each variable name of a JSON array file:
//
//   node oracle.mjs OPENCLAW_DIR NAMES.json
//
// prints {"NAME": {"host": …, "override": …, "dotenvBlocked": …,
// "configApplies": …}} where host and override are
// isDangerousHostEnvVarName and isDangerousHostEnvOverrideVarName,
// dotenvBlocked says that loadWorkspaceDotEnvFile left the name out of a
// .env file holding NAME=1, and configApplies is
// isConfigRuntimeEnvVarAllowed(NAME, "1").
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [root, namesFile] = process.argv.slice(2);
const dist = path.join(root, "node_modules", "openclaw", "dist");
// Older releases ship .js modules where newer ones ship .mjs.
const files = fs.readdirSync(dist).filter((f) => (f.endsWith(".mjs") || f.endsWith(".js")) && f !== "managed-handoff-runtime.mjs");
async function exported(name) {
  const f = files.filter((f) => fs.readFileSync(path.join(dist, f), "utf8").includes(`function ${name}(`));
  if (f.length !== 1) throw new Error(`${name}: ${f.length} modules`);
  const mod = await import(path.join(dist, f[0]));
  const fn = Object.values(mod).find((v) => typeof v === "function" && v.name === name);
  if (!fn) throw new Error(`${f[0]} does not export ${name}`);
  return fn;
}
const host = await exported("isDangerousHostEnvVarName");
const override = await exported("isDangerousHostEnvOverrideVarName");
const loadDotenv = await exported("loadWorkspaceDotEnvFile");
const configAllowed = await exported("isConfigRuntimeEnvVarAllowed");

const names = JSON.parse(fs.readFileSync(namesFile, "utf8"));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "envpolicy-"));
const envFile = path.join(dir, ".env");
fs.writeFileSync(envFile, names.map((n) => `${n}=1`).join("\n") + "\n");
// Newer releases load into opts.env; older ones into process.env, and
// skip a name it already holds: the names are taken out of it first and
// put back after.
const saved = {};
for (const n of names) {
  if (n in process.env) saved[n] = process.env[n];
  delete process.env[n];
}
const env = {};
loadDotenv(envFile, { env, quiet: true });
for (const n of names) {
  if (env[n] === undefined && process.env[n] !== undefined) env[n] = process.env[n];
  delete process.env[n];
}
Object.assign(process.env, saved);
const out = {};
for (const n of names) {
  out[n] = {
    host: host(n),
    override: override(n),
    dotenvBlocked: env[n] === undefined,
    configApplies: configAllowed(n, "1"),
  };
}
process.stdout.write(JSON.stringify(out));
