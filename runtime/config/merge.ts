// Layer merging: mappings merge deeply, lists and scalars replace; and finding which layer set a value.
import { type ConfigLayer, isMapping, type PathSegment } from "./layer.js";

export function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (isMapping(base) && isMapping(over)) {
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(over)) out[key] = deepMerge(base[key], value);
    return out;
  }
  return over;
}

export function mergeLayers(layers: ConfigLayer[]): Record<string, unknown> {
  let merged: Record<string, unknown> = {};
  for (const layer of layers) merged = deepMerge(merged, layer.data) as Record<string, unknown>;
  return merged;
}

export function valueAt(data: unknown, path: PathSegment[]): unknown {
  let current: unknown = data;
  for (const segment of path) {
    if (typeof segment === "number") {
      if (!Array.isArray(current)) return undefined;
      current = current[segment];
    } else {
      if (!isMapping(current) || !Object.hasOwn(current, segment)) return undefined;
      current = current[segment];
    }
  }
  return current;
}

/**
 * The layer whose value ends up at `path` in the merged result (or, when the value is missing, the layer
 * that supplied its deepest existing parent). Follows the merge rules: a list or scalar hides earlier layers.
 */
export function originLayer(layers: ConfigLayer[], path: PathSegment[]): ConfigLayer | undefined {
  let candidates = layers;
  let best: ConfigLayer | undefined;
  for (let depth = 0; depth <= path.length; depth++) {
    const prefix = path.slice(0, depth);
    const defining = candidates.filter((layer) => valueAt(layer.data, prefix) !== undefined);
    const last = defining[defining.length - 1];
    if (!last) break;
    best = last;
    let lastReplacing = -1;
    defining.forEach((layer, index) => {
      if (!isMapping(valueAt(layer.data, prefix))) lastReplacing = index;
    });
    candidates = lastReplacing === defining.length - 1 ? [last] : defining.slice(lastReplacing + 1);
  }
  return best;
}
