// `skillgate verify WS|proof.json [--pubkey FP] [--json]` (shared code in proof.ts).
export { registerVerify as register } from "./proof.js";
