// The built page scripts (static/js/dist/, see build.mjs) are those the sources make today:
// built again into a scratch folder, each must match the committed file byte for byte.
// `make bundle` builds them again after a change to the page's script.

import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { build, ENTRIES } from "../../build.mjs";

const DIST = fileURLToPath(new URL("../../static/js/dist/", import.meta.url));

test("the committed bundles are built from today's sources (make bundle)", async () => {
  const scratch = await mkdtemp(join(tmpdir(), "bundle-"));
  try {
    const written = await build(scratch);
    assert.equal(written.length, Object.keys(ENTRIES).length);
    for (const file of written) {
      const name = basename(file);
      const fresh = await readFile(join(scratch, name), "utf8");
      const committed = await readFile(join(DIST, name), "utf8").catch(() => "");
      assert.ok(committed === fresh, `static/js/dist/${name} is stale: run make bundle`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});
