// Preload for test/cli/lazy-verbs.test.ts: records every module URL the process loads (ESM hook + require) into $RECORD_LOADS.
import { writeFileSync } from "node:fs";
import Module, { register } from "node:module";
import { MessageChannel } from "node:worker_threads";

const loaded = new Set();
const { port1, port2 } = new MessageChannel();
port1.on("message", (url) => loaded.add(url));
port1.unref();
register(
  "data:text/javascript," +
    encodeURIComponent(
      "let port; export function initialize(data) { port = data.port; }" +
        "export async function resolve(specifier, context, next) { const result = await next(specifier, context); port.postMessage(result.url); return result; }",
    ),
  { data: { port: port2 }, transferList: [port2] },
);
const originalLoad = Module._load;
Module._load = function (request, parent, isMain) {
  try {
    loaded.add(Module._resolveFilename(request, parent, isMain));
  } catch {
    // let the real loader report it
  }
  return originalLoad.apply(this, [request, parent, isMain]);
};
process.on("exit", () => writeFileSync(process.env.RECORD_LOADS, [...loaded].join("\n")));
