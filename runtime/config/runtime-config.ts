// The shape of <ws>/.ucagent/runtime_config.json: one zod schema and the type inferred from it (here, not in contracts/, so contracts/ loads no zod).
import { z } from "zod";

export const RuntimeConfigSchema = z.object({
  schema_version: z.literal(1),
  workspace: z.string().min(1),
  /** Absolute path. */
  DUT: z.string().min(1),
  /** Absolute path. */
  OUT: z.string().min(1),
  skills_enabled: z.boolean(),
  skills_dir: z.string().min(1),
  pack_path: z.string().nullable(),
  initialised_at: z.string(),
});

/** Resolved contents of <ws>/.ucagent/runtime_config.json. */
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;
