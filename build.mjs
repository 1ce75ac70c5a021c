// Builds each page script and everything it imports into one file (static/js/dist/), so
// that a page gets its script in one request instead of a chain of imports, one level of
// modules after another. The built files are committed: the site runs with no Node.
// tests/js/bundle.test.mjs builds them again and fails when the committed ones are stale.
//
//     npm ci && npm run build      (or: make bundle)

import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = fileURLToPath(new URL(".", import.meta.url));

// Each built file, and the script it starts from.
export const ENTRIES = {
  game: "static/js/game/app.js", // the game page
  pwa: "static/js/pwa.js", // every page: the service worker and the records kept
};

// Builds every entry into `outdir`; resolves to the files written.
export async function build(outdir = `${ROOT}static/js/dist`) {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.entries(ENTRIES).map(([out, entry]) => ({ in: entry, out })),
    outdir,
    bundle: true,
    format: "esm",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    logLevel: "warning",
    metafile: true,
  });
  return Object.keys(result.metafile.outputs);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const written = await build();
  console.log(written.join("\n"));
}
