// oracle.mjs runs an installed OpenClaw's own validateConfigObject over a
// batch: a JSON array of documents in the file named by its second
// argument, a JSON array of verdicts ({ok} or {ok: false, issues: [{path,
// message}]}) on stdout. Bundled channel sections are validated too, as the
// gateway does when it loads its plugins; the answer is {bundledChannels,
// verdicts}. Every release the library carries is supported (../dist.mjs
// finds the functions).
import fs from "node:fs";

import { openDist } from "../dist.mjs";

const d = openDist(process.argv[2]);
const validate = await d.required("validateConfigObject");
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
process.stdout.write(JSON.stringify({ bundledChannels: await d.bundledChannelIds(), verdicts: out }));
