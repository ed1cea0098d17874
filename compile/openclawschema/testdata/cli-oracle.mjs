// cli-oracle.mjs validates a batch of documents the way `openclaw config
// validate --json` does, in one node process: each document is written to
// $OPENCLAW_CONFIG_PATH and read back through the CLI's own snapshot
// (readConfigFileSnapshotWithPluginMetadata with strict preparation, then
// finishConfigValidationForCli), so the loader's migrations (the implicit
// main agent) and plugin validation apply as they do for the CLI. Input:
// a JSON array of documents in the file named by its second argument;
// output: a JSON array of verdicts ({ok} or {ok: false, issues}).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const dist = path.join(process.argv[2], "node_modules", "openclaw", "dist");
const cfgFile = process.env.OPENCLAW_CONFIG_PATH;
const { readConfigFileSnapshotWithPluginMetadata } = await import(pathToFileURL(path.join(dist, "config", "config.js")).href);
const vf = fs.readdirSync(dist).find((f) => /^config-cli-validation-.*\.mjs$/.test(f) && fs.readFileSync(path.join(dist, f), "utf8").includes("finishConfigValidationForCli"));
const vmod = await import(pathToFileURL(path.join(dist, vf)).href);
const finish = Object.values(vmod).find((f) => typeof f === "function" && f.name === "finishConfigValidationForCli");
const docs = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const out = [];
for (const doc of docs) {
  fs.writeFileSync(cfgFile, JSON.stringify(doc));
  try {
    const s = await finish(await readConfigFileSnapshotWithPluginMetadata({ observe: false, prepareValidation: "strict" }));
    out.push(s.valid ? { ok: true } : { ok: false, issues: (s.issues ?? []).map((i) => ({ path: i.path, message: i.message })) });
  } catch (e) { out.push({ ok: false, issues: [{ path: "", message: `exception: ${e}` }] }); }
}
process.stdout.write(JSON.stringify(out));
