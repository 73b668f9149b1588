// Loads an optional native module built into dist/native/ (scripts/build-native.mjs), or gives null for the JS fallback.
import { fileURLToPath } from "node:url";

/** Where the build puts the modules, from this file in dist/runtime/contracts/ or in runtime/contracts/ (tests). */
const MODULE_DIRS = ["../../native/", "../../dist/native/"];
const loaded = new Map<string, unknown>();

/**
 * The exports of `dist/native/<name>.node`, loaded once; null when it was not built (no C compiler at build time),
 * cannot load here, or SKILLGATE_NATIVE=0 turns native modules off (read at each call, so a host can switch).
 */
export function nativeModule<T>(name: string): T | null {
  if (process.env.SKILLGATE_NATIVE === "0") return null;
  if (loaded.has(name)) return loaded.get(name) as T | null;
  let exports: T | null = null;
  for (const dir of MODULE_DIRS) {
    const module = { exports: {} as T };
    try {
      process.dlopen(module, fileURLToPath(new URL(`${dir}${name}.node`, import.meta.url)));
      exports = module.exports;
      break;
    } catch {
      // not at this place
    }
  }
  loaded.set(name, exports);
  return exports;
}
