const test = require("node:test");
const assert = require("node:assert");
const { isBroken } = require("../src/check");

test("treats 404 as broken", () => {
  assert.strictEqual(isBroken(404), true);
});

test("treats 200 as fine", () => {
  assert.strictEqual(isBroken(200), false);
});

test("treats a failed request as broken", () => {
  assert.strictEqual(isBroken(0), true);
});
