// Layer merging (runtime/config/merge.ts): mappings merge deeply, lists and scalars replace; which layer a value came from.
import { describe, expect, it } from "vitest";
import type { ConfigLayer } from "../../runtime/config/layer.js";
import { deepMerge, mergeLayers, originLayer, valueAt } from "../../runtime/config/merge.js";

const layer = (source: string, data: Record<string, unknown>): ConfigLayer => ({
  source,
  isFile: true,
  data,
});

describe("deepMerge", () => {
  it.each([
    ["mappings merge key by key", { a: { x: 1, y: 2 } }, { a: { y: 3, z: 4 } }, { a: { x: 1, y: 3, z: 4 } }],
    ["a list replaces a list whole", { l: [1, 2, 3] }, { l: [9] }, { l: [9] }],
    ["a scalar replaces a mapping", { a: { x: 1 } }, { a: 5 }, { a: 5 }],
    ["a mapping replaces a scalar", { a: 5 }, { a: { x: 1 } }, { a: { x: 1 } }],
    ["null replaces (it is a value, not absence)", { a: { x: 1 } }, { a: null }, { a: null }],
    ["undefined keeps the base", { a: 1 }, undefined, { a: 1 }],
  ])("%s", (_name, base, over, expected) => {
    expect(deepMerge(base, over)).toEqual(expected);
  });

  it("never mutates its inputs", () => {
    const base = { a: { x: 1 } };
    const over = { a: { y: 2 } };
    deepMerge(base, over);
    expect(base).toEqual({ a: { x: 1 } });
    expect(over).toEqual({ a: { y: 2 } });
  });
});

describe("mergeLayers", () => {
  it("later layers win, in order", () => {
    const merged = mergeLayers([
      layer("default", { skill: { use_skill: true, general_skill_list: ["a"] }, stage: [{ name: "s1" }] }),
      layer("user", { skill: { use_skill: false } }),
      layer("setting", { skill: { general_skill_list: ["b", "c"] } }),
    ]);
    expect(merged).toEqual({
      skill: { use_skill: false, general_skill_list: ["b", "c"] },
      stage: [{ name: "s1" }],
    });
    expect(mergeLayers([])).toEqual({});
  });
});

describe("valueAt", () => {
  const data = { stage: [{ name: "s1", skill_list: ["x"] }], skill: { use_skill: false } };
  it.each([
    [["stage", 0, "name"], "s1"],
    [["stage", 0, "skill_list", 0], "x"],
    [["skill", "use_skill"], false],
    [[], data],
    [["stage", "0"], undefined],
    [["skill", 0], undefined],
    [["nope", "deeper"], undefined],
    [["constructor"], undefined],
    [["skill", "toString"], undefined],
  ])("%j", (path, expected) => {
    expect(valueAt(data, path)).toEqual(expected);
  });
});

describe("originLayer", () => {
  const defaults = layer("default.yaml", {
    skill: { use_skill: true, max_skill_list_count: 15 },
    stage: [{ name: "a" }],
  });
  const user = layer("user.yaml", { skill: { use_skill: "yes" } });
  const setting = layer("setting.yaml", { stage: [{ name: "b", skill_list: 3 }] });
  const layers = [defaults, user, setting];

  it("blames the last layer that set the value", () => {
    expect(originLayer(layers, ["skill", "use_skill"])?.source).toBe("user.yaml");
    expect(originLayer(layers, ["skill", "max_skill_list_count"])?.source).toBe("default.yaml");
  });

  it("a list from a later layer hides what earlier layers had under it", () => {
    expect(originLayer(layers, ["stage", 0, "skill_list"])?.source).toBe("setting.yaml");
    expect(originLayer(layers, ["stage", 0, "name"])?.source).toBe("setting.yaml");
  });

  it("a missing value is blamed on the layer of its deepest existing parent; a key no layer has is the last layer's (top level); no layers is undefined", () => {
    expect(originLayer(layers, ["skill", "extra_skill_path"])?.source).toBe("user.yaml");
    expect(originLayer([layer("x", {}), layer("y", {})], ["skill"])?.source).toBe("y");
    expect(originLayer([], ["skill"])).toBeUndefined();
  });
});
