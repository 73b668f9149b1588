// The list of CLI verbs; each module exports `register(program, io)`.
import type { Command } from "commander";
import type { CliIO } from "../io.js";
import { register as registerCall } from "./call.js";
import { register as registerCatalog } from "./catalog.js";
import { register as registerConnect } from "./connect.js";
import { register as registerInit } from "./init.js";
import { register as registerScan } from "./scan.js";
import { register as registerServe } from "./serve.js";
import { register as registerStatus } from "./status.js";
import { register as registerValidate } from "./validate.js";

export type RegisterCommand = (program: Command, io: CliIO) => void;

export const registeredCommands: RegisterCommand[] = [
  registerInit,
  registerCall,
  registerServe,
  registerConnect,
  registerStatus,
  registerScan,
  registerValidate,
  registerCatalog,
];
