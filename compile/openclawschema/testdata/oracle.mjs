// oracle.mjs runs the pinned OpenClaw's own validateConfigObject over a
// batch: a JSON array of documents in the file named by its second argument, a JSON array of verdicts
// ({ok} or {ok: false, issues: [{path, message}]}) on stdout. Bundled channel
// sections are validated too, as the gateway does when it loads its plugins;
// the answer is {bundledChannels, verdicts}.
import fs from "node:fs";
import path from "node:path";

const dist = path.join(process.argv[2], "node_modules", "openclaw", "dist");
const file = fs.readdirSync(dist).find((f) => /^validation-core-.*\.mjs$/.test(f));
const mod = await import(path.join(dist, file));
const validate = Object.values(mod).find((f) => typeof f === "function" && f.name === "validateConfigObject");
if (!validate) throw new Error(`${file} does not export validateConfigObject`);
const docs = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const out = docs.map((doc) => {
  try {
    const r = validate(doc, { validateBundledChannels: true });
    if (r.ok) return { ok: true };
    return { ok: false, issues: r.issues.map((i) => ({ path: i.path, message: i.message })) };
  } catch (e) {
    return { ok: false, issues: [{ path: "", message: `exception: ${e}` }] };
  }
});
// The channels validateBundledChannels checks: the exported frozen list.
const bundled = Object.values(mod).find((x) => Array.isArray(x) && Object.isFrozen(x) && x.includes("telegram")) ?? [];
process.stdout.write(JSON.stringify({ bundledChannels: bundled, verdicts: out }));
