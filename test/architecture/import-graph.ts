// Pure import-graph checks of runtime/: every import edge (type-only and dynamic included), layer order, index.ts entry, cycles.
import { dirname, join, normalize, sep } from "node:path";
import ts from "typescript";

/** One relative import: the importing file, the file it names (repository-relative, `.ts`), and how it was written. */
export interface ImportEdge {
  from: string;
  to: string;
  specifier: string;
}

const toPosix = (path: string): string => path.split(sep).join("/");

/** Every module specifier a file names: import/export … from, import x = require(), import(), typeof import(). */
export function moduleSpecifiers(
  file: string,
  text: string,
): { specifiers: string[]; unresolvable: string[] } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  const unresolvable: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      specifiers.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) specifiers.push(arg.text);
      else {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        unresolvable.push(`${file}:${line + 1}: ${node.getText()}`);
      }
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specifiers, unresolvable };
}

/** The relative import edges between the given files (packages and node: builtins are not edges). */
export function importEdges(files: Map<string, string>): { edges: ImportEdge[]; problems: string[] } {
  const edges: ImportEdge[] = [];
  const problems: string[] = [];
  for (const [from, text] of files) {
    const { specifiers, unresolvable } = moduleSpecifiers(from, text);
    for (const line of unresolvable)
      problems.push(`import with a computed name (cannot be checked): ${line}`);
    for (const specifier of specifiers) {
      if (!specifier.startsWith(".")) continue;
      const to = toPosix(normalize(join(dirname(from), specifier))).replace(/\.js$/, ".ts");
      if (!files.has(to)) {
        problems.push(`import of a file that is not a runtime .ts file: ${from} → ${specifier}`);
        continue;
      }
      edges.push({ from, to, specifier });
    }
  }
  return { edges, problems };
}

/** The unit a runtime file belongs to: its top folder under the root, or the root file's own name (errors, index). */
export function unitOf(root: string, file: string): string {
  const parts = file.slice(root.length + 1).split("/");
  return parts.length === 1 ? parts[0]!.replace(/\.ts$/, "") : parts[0]!;
}

/** Reads the layer order from a Markdown line `layers: a → b → c` (top first); null when there is none. */
export function parseLayerOrder(markdown: string): string[] | null {
  const match = /^layers: (.+)$/m.exec(markdown.replace(/`/g, ""));
  return match ? match[1]!.split("→").map((name) => name.trim()) : null;
}

/** Strongly connected components with more than one file (or a file importing itself), as closed paths. */
export function cycles(nodes: Iterable<string>, next: (node: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const strong = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const to of next(node)) {
      if (!index.has(to)) {
        strong(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || next(node).includes(node)) found.push(closedPath(new Set(component), next));
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) strong(node);
  return found;
}

/** One concrete cycle inside a component, from its smallest member back to it (shortest by breadth-first search). */
function closedPath(component: Set<string>, next: (node: string) => string[]): string[] {
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of [...next(node)].sort()) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/**
 * Every broken rule, one line each: an import into a unit at or above the importer's layer, a cross-unit import
 * that does not name the unit's index.ts, a unit missing from the layer order, and every cycle of files or units.
 */
export function architectureProblems(root: string, files: Map<string, string>, layers: string[]): string[] {
  const { edges, problems } = importEdges(files);
  const rank = new Map(layers.map((name, at) => [name, at]));
  const units = new Set([...files.keys()].map((file) => unitOf(root, file)));
  for (const unit of [...units].sort()) {
    if (!rank.has(unit)) problems.push(`unit missing from the layer order: ${unit}`);
  }
  for (const name of layers)
    if (!units.has(name)) problems.push(`layer order names a unit that does not exist: ${name}`);
  const unitEdges = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = unitOf(root, from);
    const b = unitOf(root, to);
    if (a === b) continue;
    if (!unitEdges.has(a)) unitEdges.set(a, new Set());
    unitEdges.get(a)!.add(b);
    const ra = rank.get(a);
    const rb = rank.get(b);
    if (ra !== undefined && rb !== undefined && rb <= ra) {
      problems.push(`upward import: ${from} → ${to} (${a} may import only layers below it; ${b} is above)`);
    }
    const entry = `${root}/${b}/index.ts`;
    if (to !== entry && to !== `${root}/${b}.ts`) {
      problems.push(`import bypasses index.ts: ${from} → ${to} (import ${entry} instead)`);
    }
  }
  const fileNext = new Map<string, string[]>();
  for (const { from, to } of edges) fileNext.set(from, [...(fileNext.get(from) ?? []), to]);
  for (const cycle of cycles(files.keys(), (file) => fileNext.get(file) ?? [])) {
    problems.push(`circular import of files: ${cycle.join(" → ")}`);
  }
  for (const cycle of cycles(units, (unit) => [...(unitEdges.get(unit) ?? [])])) {
    problems.push(`circular import of folders: ${cycle.join(" → ")}`);
  }
  return problems;
}
