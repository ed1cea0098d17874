// dist.mjs finds what this package reads in an installed OpenClaw package
// (gen.mjs and the test oracles in testdata/ import it). The bundler
// hashes its module names and moves functions between modules from one
// release to the next, and older releases ship .js modules where newer
// ones ship .mjs, so everything is found by the text that defines it.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export function openDist(root) {
  const dist = path.join(root, "node_modules", "openclaw", "dist");
  const modules = fs.readdirSync(dist).filter((f) => f.endsWith(".mjs") || f.endsWith(".js"));
  const text = new Map();
  const source = (f) => {
    if (!text.has(f)) text.set(f, fs.readFileSync(path.join(dist, f), "utf8"));
    return text.get(f);
  };
  const load = (f) => import(pathToFileURL(path.join(dist, f)).href);
  // holding lists the modules whose text holds marker.
  const holding = (marker) => modules.filter((f) => source(f).includes(marker));
  // defining is the one module holding marker; it fails otherwise.
  const defining = (marker) => {
    const found = holding(marker);
    if (found.length !== 1) {
      throw new Error(`expected one module holding ${JSON.stringify(marker)}, found ${found.length}: ${found.slice(0, 5).join(" ")}`);
    }
    return found[0];
  };
  // exported is the function name as exported by a module defining it,
  // or undefined when no module exports it.
  const exported = async (name) => {
    for (const f of holding(`function ${name}(`)) {
      const fn = Object.values(await load(f)).find((x) => typeof x === "function" && x.name === name);
      if (fn) return fn;
    }
    return undefined;
  };
  // required is exported, failing when no module exports name.
  const required = async (name) => {
    const fn = await exported(name);
    if (!fn) throw new Error(`no module exports ${name}`);
    return fn;
  };
  // bundledChannelIds is the list validateConfigObject validates by
  // name, derived from the generated channel metadata as its definition
  // (checked to be the expected one) derives it: the configurable
  // entries' channel ids, lower-cased, non-empty. Some releases bundle a
  // second copy of the metadata into a standalone runtime module; every
  // exported copy must agree.
  const bundledChannelIds = async () => {
    defining(
      "const bundledChannelIds = Object.freeze(GENERATED_BUNDLED_CHANNEL_CONFIG_METADATA.filter((entry) => entry.configurable !== false).map((entry) => normalizeLowercaseStringOrEmpty(entry.channelId)).filter((channelId) => channelId.length > 0));",
    );
    const metas = [];
    for (const f of holding("const GENERATED_BUNDLED_CHANNEL_CONFIG_METADATA")) {
      metas.push(...Object.values(await load(f)).filter((x) => Array.isArray(x) && x.length > 0 && x.every((e) => e && typeof e.channelId === "string")));
    }
    if (metas.length === 0 || metas.some((m) => JSON.stringify(m) !== JSON.stringify(metas[0]))) {
      throw new Error(`found ${metas.length} exported channel metadata lists, which differ or are missing`);
    }
    const ids = metas[0].filter((e) => e.configurable !== false).map((e) => e.channelId.trim().toLowerCase());
    return [...new Set(ids.filter((id) => id.length > 0))].sort();
  };
  return { dist, modules, source, load, holding, defining, exported, required, bundledChannelIds };
}
