// `skillgate export WS --out proof.json` (the bundle builder lives in proof.ts, shared with verify).
export { registerExport as register } from "./proof.js";
