// envoracle.mjs reads a JSON array of configurations and prints, for each,
// the variables the installed OpenClaw finds missing when it reads it with
// an empty process environment (resolveConfigForRead: env.vars applied,
// then ${VAR} substituted), sorted:
//
//   node envoracle.mjs OPENCLAW_DIR DOCS.json
import fs from "node:fs";
import path from "node:path";

const [root, docsFile] = process.argv.slice(2);
const dist = path.join(root, "node_modules", "openclaw", "dist");
const files = fs.readdirSync(dist).filter((f) => f.endsWith(".mjs") && f !== "managed-handoff-runtime.mjs");
const found = files.filter((f) => fs.readFileSync(path.join(dist, f), "utf8").includes("function resolveConfigForRead("));
if (found.length !== 1) throw new Error(`resolveConfigForRead: ${found.length} modules`);
const mod = await import(path.join(dist, found[0]));
const read = Object.values(mod).find((v) => typeof v === "function" && v.name === "resolveConfigForRead");
const out = [];
for (const doc of JSON.parse(fs.readFileSync(docsFile, "utf8"))) {
  const r = read(doc, {});
  out.push([...new Set(r.envWarnings.map((w) => w.varName))].sort());
}
process.stdout.write(JSON.stringify(out));
