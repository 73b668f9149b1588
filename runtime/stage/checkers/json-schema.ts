// Checker `json_schema`: a JSON or YAML file (by extension) validated with ajv against an inline schema or schema_file.
import type { Ajv, ErrorObject } from "ajv";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { readTextArg } from "./files.js";
import type { CheckerContext, CheckerKind } from "./types.js";

/** Built on first use: an engine start checks the args of the kinds its workflow names only. */
const buildArgs = () =>
  z
    .object({
      path: z.string().min(1),
      schema: z.record(z.string(), z.unknown()).optional(),
      schema_file: z.string().min(1).optional(),
    })
    .strict()
    .refine((a) => (a.schema === undefined) !== (a.schema_file === undefined), {
      message: "give exactly one of schema or schema_file",
    });
let builtArgs: ReturnType<typeof buildArgs> | undefined;

const MAX_ERRORS = 10;

export const jsonSchema: CheckerKind<z.infer<ReturnType<typeof buildArgs>>> = {
  kind: "json_schema",
  get args() {
    builtArgs ??= buildArgs();
    return builtArgs;
  },
  async run(args, ctx) {
    const data = await readData(args.path, ctx);
    if (!data.ok) return data;
    let schema: unknown = args.schema;
    if (args.schema_file !== undefined) {
      const loaded = await readData(args.schema_file, ctx);
      if (!loaded.ok)
        return {
          ok: false,
          message: `${loaded.message} (it is the schema_file of this checker; fix the stage config)`,
        };
      schema = loaded.value;
    }
    // ajv (60 modules) loads with the first json_schema check, not with every process that builds the checker table.
    const { Ajv: AjvClass } = await import("ajv");
    const ajv = new AjvClass({ allErrors: true, strict: false });
    let validate: ReturnType<Ajv["compile"]>;
    try {
      validate = ajv.compile(schema as object);
    } catch (error) {
      return {
        ok: false,
        message: `json_schema: the schema for ${data.shown} is invalid (${(error as Error).message}); fix the stage config.`,
      };
    }
    if (validate(data.value)) return { ok: true, message: `json_schema: ${data.shown} matches the schema.` };
    const errors = (validate.errors ?? []).slice(0, MAX_ERRORS).map(formatError);
    const more =
      (validate.errors?.length ?? 0) > MAX_ERRORS
        ? `; and ${(validate.errors?.length ?? 0) - MAX_ERRORS} more`
        : "";
    return {
      ok: false,
      message: `json_schema: ${data.shown} does not match the schema: ${errors.join("; ")}${more}. Fix those fields.`,
    };
  },
};

function formatError(error: ErrorObject): string {
  const where = error.instancePath.length > 0 ? error.instancePath : "(root)";
  const extra =
    error.keyword === "additionalProperties"
      ? ` '${String((error.params as { additionalProperty?: string }).additionalProperty)}'`
      : error.keyword === "enum"
        ? ` ${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)}`
        : "";
  return `${where} ${error.message ?? error.keyword}${extra}`;
}

async function readData(
  path: string,
  ctx: CheckerContext,
): Promise<{ ok: true; value: unknown; shown: string } | { ok: false; message: string }> {
  const file = await readTextArg("json_schema", path, ctx);
  if (!file.ok) return file;
  const yaml = /\.ya?ml$/i.test(path);
  try {
    return { ok: true, value: yaml ? parseYaml(file.text) : JSON.parse(file.text), shown: file.shown };
  } catch (error) {
    const text = ((error as Error).message ?? String(error)).split("\n")[0] ?? "";
    const where = yaml ? "" : jsonErrorLocation(text, file.text);
    const reason = yaml ? text : text.replace(/ in JSON at position \d+.*$/, "");
    return {
      ok: false,
      message: `json_schema: ${file.shown} is not valid ${yaml ? "YAML" : "JSON"}${where} (${reason}); fix the syntax.`,
    };
  }
}

/** " at line L column C" from V8's "at position N" (Node versions word it differently). */
function jsonErrorLocation(message: string, text: string): string {
  const match = / at position (\d+)/.exec(message);
  if (!match) return "";
  const before = text.slice(0, Number(match[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return ` at line ${line} column ${column}`;
}
