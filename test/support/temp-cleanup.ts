// vitest setup file: removes the temp roots a test file left once all of its own tests and hooks are done.
import { afterAll } from "vitest";
import { removeLeftTempRoots } from "./temp-root.js";

// Registered before the file's own hooks, so (vitest runs after-hooks in reverse) it runs after them.
afterAll(() => {
  const kept = removeLeftTempRoots();
  if (kept.length > 0) console.warn(`temp roots left in place:\n${kept.join("\n")}`);
});
