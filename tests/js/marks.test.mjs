// What a hint's chain draws on the candidates: the candidates it marks true and false and
// its links, from a hint (levels 2 and 3 only) or a step of the walkthrough.

import assert from "node:assert/strict";
import { test } from "node:test";

import { hintChain } from "../../static/js/game/marks.js";

const told = {
  on: [[1, 7], [12, 7]],
  off: [[9, 7], [12, 5]],
  links: [
    { from: "1:7", to: "9:7", kind: "weak" },
    { from: "9:7", to: "12:7", kind: "strong" },
  ],
};

test("a hint's chain is drawn at levels two and three, never at one", () => {
  assert.equal(hintChain({ level: 1, ...told }, null).links.length, 0);
  assert.equal(hintChain({ level: 1, ...told }, null).on.size, 0);
  for (const level of [2, 3]) {
    const chain = hintChain({ level, ...told }, null);
    assert.deepEqual(chain.on.get(12), [7]);
    assert.deepEqual(chain.off.get(12), [5]);
    assert.deepEqual(chain.links, told.links);
  }
});

test("a step of the walkthrough gives its links as lists", () => {
  const step = { on: [[10, 5]], off: [[11, 5]], links: [[11, 5, 10, 5, "strong"], [10, 5, 10, 7, "weak"]] };
  const chain = hintChain(null, { path: [step], index: 0 });
  assert.deepEqual(chain.links, [
    { from: "11:5", to: "10:5", kind: "strong" },
    { from: "10:5", to: "10:7", kind: "weak" },
  ]);
  assert.deepEqual(chain.off.get(11), [5]);
});

test("a hint with no chain draws none", () => {
  const chain = hintChain({ level: 3, region: [1, 2], cause: [1] }, null);
  assert.equal(chain.on.size + chain.off.size + chain.links.length, 0);
});
