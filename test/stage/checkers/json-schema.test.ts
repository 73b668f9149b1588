// Checker `json_schema` (checkers/json-schema.ts): JSON and YAML against inline and file schemas (ajv), syntax errors located.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckerFixture, type CheckerRow, checkerFixture } from "./fixture.js";

let fx: CheckerFixture;
beforeAll(async () => {
  fx = await checkerFixture();
});
afterAll(() => fx.cleanup());

describe("json_schema", () => {
  it.each<CheckerRow>([
    [
      "json schema mismatch",
      "json_schema",
      { path: "out/data.json", schema_file: "schema.json" },
      false,
      "json_schema: out/data.json does not match the schema: /items/1 must have required property 'file'; /items/1/line must be integer. Fix those fields.",
    ],
    [
      "yaml against inline schema",
      "json_schema",
      { path: "out/data.yaml", schema: { type: "object", required: ["items"] } },
      true,
      "json_schema: out/data.yaml matches the schema.",
    ],
    [
      "json syntax error",
      "json_schema",
      { path: "out/broken.json", schema: { type: "object" } },
      false,
      "json_schema: out/broken.json is not valid JSON at line 1 column 3 (Expected property name or '}'); fix the syntax.",
    ],
  ])("%s", async (_name, kind, args, ok, message) => {
    expect(await fx.run(kind, args)).toEqual({ ok, message: message.replaceAll("<ROOT>", fx.root) });
  });
});
