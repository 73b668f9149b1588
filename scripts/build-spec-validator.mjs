// Build step: writes the spec frontmatter schema as ajv standalone code next to the compiled spec-schema.js in dist/.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";

/** Standalone (CommonJS) source of the validator for `schema`, compiled with the runtime's own ajv options. */
export function standaloneValidatorSource(schema, options) {
  const ajv = new Ajv({ ...options, code: { source: true } });
  return standaloneCode.default(ajv, ajv.compile(schema));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const moduleFile = join(process.argv[2] ?? "dist", "runtime", "skills", "spec-schema.js");
  const { SKILL_FRONTMATTER_SCHEMA, SPEC_AJV_OPTIONS, STANDALONE_VALIDATOR_FILE } = await import(
    new URL(`file://${moduleFile.startsWith("/") ? "" : `${process.cwd()}/`}${moduleFile}`).href
  );
  const target = join(dirname(moduleFile), STANDALONE_VALIDATOR_FILE);
  writeFileSync(target, standaloneValidatorSource(SKILL_FRONTMATTER_SCHEMA, SPEC_AJV_OPTIONS));
}
