// Generates sensitive.txt: the configuration paths OpenClaw's own schema
// hints mark `sensitive` (buildConfigSchemaCore in the pinned release).
// Usage: node gen.mjs <openclaw dist dir> > sensitive.txt
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dist = process.argv[2];
const file = readdirSync(dist).find(
  (f) => f.endsWith(".mjs") && readFileSync(join(dist, f), "utf8").includes("function buildConfigSchemaCore("),
);
if (!file) throw new Error("buildConfigSchemaCore not found");
const mod = await import(join(dist, file));
const build = Object.values(mod).find((v) => typeof v === "function" && v.name === "buildConfigSchemaCore");
const core = build();
const paths = Object.entries(core.uiHints)
  .filter(([, hint]) => hint && hint.sensitive === true)
  .map(([path]) => path)
  .sort();
process.stdout.write(`# openclaw ${core.version}: ${paths.length} sensitive paths (buildConfigSchemaCore uiHints)\n`);
for (const p of paths) process.stdout.write(p + "\n");
