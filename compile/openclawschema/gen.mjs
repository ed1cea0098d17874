// gen.mjs writes one OpenClaw release's configuration contract as the data
// this package embeds. Run it with the node that ships beside the package
// (see doc.go and cmd/gendata):
//
//   $OCCKIT_OPENCLAW_DIR/node/bin/node gen.mjs $OCCKIT_OPENCLAW_DIR OUTDIR
//
// Each value comes from the release's own code, found by the name of the
// function or constant that defines it (the hashed module names change
// with every release, and releases ship .js or .mjs modules), and is
// written into OUTDIR:
//
//   schema.json     the draft-07 schema buildConfigSchemaCore returns,
//                   compact, one trailing newline (the build timestamp
//                   OpenClaw adds, generatedAt, is not part of it)
//   sensitive.json  the hint paths marked sensitive, sorted, one per line
//   version.txt     the package version the schema came from
//   plugins.json    what decides which channel ids the release accepts
//                   and which plugins it runs:
//                     channels  bundledChannelIds, the channel sections
//                               the release validates by name;
//                     bundled   the plugins of the manifest registry a
//                               fresh state directory sees (the plugins
//                               the package ships), each with the channels
//                               it provides;
//                     aliases   normalizePluginId's built-in aliases;
//                     official  the official external plugins (source
//                               "official" in the bundled catalog) the
//                               package does not ship, which the gateway
//                               installs from npm, version-bound to the
//                               release, when a configuration needs one;
//                     external  the catalog's third-party plugins (source
//                               "external"), which it installs at the
//                               exact version the catalog pins.
//
// The output is a pure function of the package.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { openDist } from "./dist.mjs";

const [root, out] = process.argv.slice(2);
if (!root || !out) {
  console.error("usage: node gen.mjs OPENCLAW_DIR OUTDIR");
  process.exit(2);
}
// A fresh home and state directory: the manifest registry must see the
// package's own plugins only, never what this machine has installed.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "occkit-gen-"));
process.env.HOME = scratch;
process.env.OPENCLAW_STATE_DIR = path.join(scratch, "state");
delete process.env.OPENCLAW_CONFIG_PATH;

const pkg = path.join(root, "node_modules", "openclaw");
const { source, load, defining, required: exported, bundledChannelIds } = openDist(root);

const manifest = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8"));

const build = await exported("buildConfigSchemaCore");
const { schema, uiHints, version } = build();
if (version !== manifest.version) {
  console.error(`schema version ${version} differs from the package version ${manifest.version}`);
  process.exit(1);
}
const sensitive = Object.entries(uiHints ?? {})
  .filter(([, hint]) => hint && hint.sensitive === true)
  .map(([p]) => p)
  .sort();

const channels = await bundledChannelIds();

const registryOf = await exported("resolveConfigWidePluginManifestRegistry");
const registry = registryOf({ config: {}, env: process.env });
if (registry.diagnostics?.length) {
  console.error(`the manifest registry of a fresh state reports ${registry.diagnostics.length} diagnostics`);
  process.exit(1);
}
const bundled = registry.plugins
  .map((p) => {
    if (p.origin !== "bundled") {
      console.error(`plugin ${p.id} of a fresh state is ${p.origin}, not bundled`);
      process.exit(1);
    }
    return { id: p.id, channels: [...(p.channels ?? [])].sort() };
  })
  .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const bundledIds = new Set(bundled.map((p) => p.id));

// normalizePluginId's alias table is a literal of its module; each pair is
// checked against the function itself.
const aliasFile = defining("const BUILT_IN_PLUGIN_ALIAS_FALLBACKS =");
const aliasMod = await load(aliasFile);
const normalizePluginId = Object.values(aliasMod).find((f) => typeof f === "function" && f.name === "normalizePluginId");
if (!normalizePluginId) {
  console.error(`${aliasFile} does not export normalizePluginId`);
  process.exit(1);
}
const aliasSrc = source(defining("const BUILT_IN_PLUGIN_ALIAS_FALLBACKS =")).match(/const BUILT_IN_PLUGIN_ALIAS_FALLBACKS = (\[[\s\S]*?\]);/);
const aliases = aliasSrc ? JSON.parse(aliasSrc[1].replace(/,(\s*\])/g, "$1")) : [];
for (const [from, to] of aliases) {
  if (normalizePluginId(from) !== to || normalizePluginId(to) !== to) {
    console.error(`normalizePluginId(${from}) is ${normalizePluginId(from)}, not ${to}`);
    process.exit(1);
  }
}
if (normalizePluginId(" Telegram ") !== "telegram") {
  console.error("normalizePluginId no longer trims and lower-cases");
  process.exit(1);
}

const listCatalog = await exported("listOfficialExternalPluginCatalogEntries");
const pluginIdOf = await exported("resolveOfficialExternalPluginId");
const byId = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const catalog = listCatalog()
  .map((e) => {
    const id = pluginIdOf(e);
    const m = e.openclaw ?? {};
    const ch = new Set([...(m.channel?.id ? [m.channel.id] : []), ...Object.keys(m.channelConfigs ?? {})]);
    return { id, source: e.source, package: e.name, npmSpec: m.install?.npmSpec, kind: e.kind, channels: [...ch].sort() };
  })
  .filter((p) => p.id && !bundledIds.has(p.id));
const official = catalog
  .filter((p) => p.source === "official")
  .map((p) => {
    // Version-bound: the catalog names the bare package, the release
    // installs its own version of it.
    if (!p.package.startsWith("@openclaw/") || p.npmSpec !== p.package) {
      console.error(`official plugin ${p.id} is published as ${p.package} (npm spec ${p.npmSpec}), not a bare @openclaw package`);
      process.exit(1);
    }
    return { id: p.id, package: p.package, kind: p.kind, channels: p.channels };
  })
  .sort(byId);
const external = catalog
  .filter((p) => p.source !== "official")
  .map((p) => {
    // Pinned: the catalog names the exact version the release installs.
    const spec = p.npmSpec ?? "";
    const at = spec.lastIndexOf("@");
    const version = at > 0 ? spec.slice(at + 1) : "";
    if (p.source !== "external" || spec.slice(0, at) !== p.package || !/^[0-9]+\.[0-9]+\.[0-9]+$/.test(version)) {
      console.error(`catalog plugin ${p.id} (source ${p.source}) has npm spec ${spec}, not ${p.package}@<exact version>`);
      process.exit(1);
    }
    return { id: p.id, package: p.package, version, kind: p.kind, channels: p.channels };
  })
  .sort(byId);

fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, "schema.json"), JSON.stringify(schema) + "\n");
fs.writeFileSync(path.join(out, "sensitive.json"), "[\n" + sensitive.map((p) => JSON.stringify(p)).join(",\n") + "\n]\n");
fs.writeFileSync(path.join(out, "version.txt"), version + "\n");
const lines = (xs) => "[\n  " + xs.map((x) => JSON.stringify(x)).join(",\n  ") + "\n]";
fs.writeFileSync(
  path.join(out, "plugins.json"),
  `{\n"channels": ${lines(channels)},\n"bundled": ${lines(bundled)},\n"aliases": ${lines(aliases)},\n"official": ${lines(official)},\n"external": ${lines(external)}\n}\n`,
);
fs.rmSync(scratch, { recursive: true, force: true });
