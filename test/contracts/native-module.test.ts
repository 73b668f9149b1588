// runtime/contracts/native-module.ts: the optional native modules load once from dist/native/, and not at all when turned off or absent.
import { afterEach, describe, expect, it } from "vitest";
import { nativeModule } from "../../runtime/contracts/index.js";

afterEach(() => {
  delete process.env.SKILLGATE_NATIVE;
});

describe("nativeModule", () => {
  it("loads each built module once (npm run build with a C compiler builds them)", () => {
    for (const [name, exported] of [
      ["tree-prefetch", "take"],
      ["cgroup-prime", "prime"],
    ] as const) {
      const loaded = nativeModule<Record<string, unknown>>(name);
      if (loaded === null)
        throw new Error(`dist/native/${name}.node is not built (npm run build with a C compiler)`);
      expect(typeof loaded[exported]).toBe("function");
      expect(nativeModule(name)).toBe(loaded);
    }
  });

  it("gives null for a module that is not there, and for every module while SKILLGATE_NATIVE=0", () => {
    expect(nativeModule("no-such-module")).toBeNull();
    process.env.SKILLGATE_NATIVE = "0";
    expect(nativeModule("tree-prefetch")).toBeNull();
    delete process.env.SKILLGATE_NATIVE;
    expect(nativeModule("tree-prefetch")).not.toBeNull();
  });
});
