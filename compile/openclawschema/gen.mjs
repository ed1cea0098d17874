// gen.mjs writes the pinned OpenClaw package's configuration schema as the
// data this package embeds. Run it with the node that ships beside the
// package (see doc.go):
//
//   $OCCKIT_OPENCLAW_DIR/node/bin/node gen.mjs $OCCKIT_OPENCLAW_DIR OUTDIR
//
// It imports the module that defines buildConfigSchemaCore (the hashed
// file name changes with each release, so it is found by the function's
// own name), calls it, and writes three files into OUTDIR:
//
//   schema.json     the draft-07 schema, compact, one trailing newline
//   sensitive.json  the hint paths marked sensitive, sorted, one per line
//   version.txt     the package version the schema came from
//
// The build timestamp OpenClaw adds (generatedAt) is not written, so the
// output is a pure function of the package.
import fs from "node:fs";
import path from "node:path";

const [root, out] = process.argv.slice(2);
if (!root || !out) {
  console.error("usage: node gen.mjs OPENCLAW_DIR OUTDIR");
  process.exit(2);
}
const pkg = path.join(root, "node_modules", "openclaw");
const dist = path.join(pkg, "dist");
const candidates = fs
  .readdirSync(dist)
  .filter((f) => f.endsWith(".mjs"))
  .filter((f) => fs.readFileSync(path.join(dist, f), "utf8").includes("function buildConfigSchemaCore("));
if (candidates.length !== 1) {
  console.error(`expected one module defining buildConfigSchemaCore, found ${candidates.length}`);
  process.exit(1);
}
const mod = await import(path.join(dist, candidates[0]));
const build = Object.values(mod).find((f) => typeof f === "function" && f.name === "buildConfigSchemaCore");
if (!build) {
  console.error(`${candidates[0]} does not export buildConfigSchemaCore`);
  process.exit(1);
}
const { schema, uiHints, version } = build();
const manifest = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8"));
if (version !== manifest.version) {
  console.error(`schema version ${version} differs from the package version ${manifest.version}`);
  process.exit(1);
}
const sensitive = Object.entries(uiHints ?? {})
  .filter(([, hint]) => hint && hint.sensitive === true)
  .map(([p]) => p)
  .sort();
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, "schema.json"), JSON.stringify(schema) + "\n");
fs.writeFileSync(path.join(out, "sensitive.json"), "[\n" + sensitive.map((p) => JSON.stringify(p)).join(",\n") + "\n]\n");
fs.writeFileSync(path.join(out, "version.txt"), version + "\n");
