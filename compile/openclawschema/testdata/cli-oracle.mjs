// cli-oracle.mjs validates a batch of documents the way `openclaw config
// validate --json` of the installed release does, in one node process:
// each document is written to $OPENCLAW_CONFIG_PATH and read back through
// the CLI's own snapshot (readConfigFileSnapshotWithPluginMetadata), then
// validated strictly as the release's runConfigValidate does, so the
// loader's migrations (the implicit main agent) and plugin validation
// (channel ids, channel sections with their defaults) apply as they do
// for the CLI. Input: a JSON array of documents in the file named by its
// second argument; output: a JSON array of verdicts ({ok} or {ok: false,
// issues}).
//
// The strict step differs by release: finishConfigValidationForCli
// (2026.9.6 on), strictlyValidateConfigSnapshotForCli where a module
// exports it (2026.9.5), and before that the same steps the unexported
// function takes: validateConfigObjectRawWithPlugins with strict semantic
// validation. Those releases' check of secret providers on the host
// (collectConfigSecretProviderErrors, unexported) is not run: it judges
// the host (the secret-provider-host row), not the document.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { openDist } from "../dist.mjs";

const d = openDist(process.argv[2]);
const cfgFile = process.env.OPENCLAW_CONFIG_PATH;
const config = await import(pathToFileURL(path.join(d.dist, "config", "config.js")).href);
const read = config.readConfigFileSnapshotWithPluginMetadata;
const finish = await d.exported("finishConfigValidationForCli");
const strictly = await d.exported("strictlyValidateConfigSnapshotForCli");
const check = finish
  ? async () => finish(await read({ observe: false, prepareValidation: "strict" }))
  : async () => {
      const r = await read({ observe: false });
      if (strictly) return strictly(r.snapshot, r.pluginMetadataSnapshot);
      if (!r.snapshot.valid) return r.snapshot;
      const v = config.validateConfigObjectRawWithPlugins(r.snapshot.sourceConfig, {
        semanticValidation: "strict",
        pluginMetadataSnapshot: r.pluginMetadataSnapshot,
      });
      return v.ok ? r.snapshot : { ...r.snapshot, valid: false, issues: v.issues };
    };
const docs = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const out = [];
for (const doc of docs) {
  fs.writeFileSync(cfgFile, JSON.stringify(doc));
  try {
    const s = await check();
    out.push(s.valid ? { ok: true } : { ok: false, issues: (s.issues ?? []).map((i) => ({ path: i.path, message: i.message })) });
  } catch (e) {
    out.push({ ok: false, issues: [{ path: "", message: `exception: ${e}` }] });
  }
}
process.stdout.write(JSON.stringify(out));
