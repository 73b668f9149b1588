// Public API of the tree walker shared by skills/, scan/, workspace/, exec/ and tools/.
export type { EntryKind, VisitResult, Visitor, WalkEntry, WalkFs, WalkOptions, WalkResult } from "./walk.js";
export { nodeWalkFs, walkTree } from "./walk.js";
