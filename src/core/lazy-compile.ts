/**
 * The schema compiler, imported by the client's first request (see `lazy.ts`). A module of its own
 * so that what loads validation but never the compiler does not reach it.
 */
import type * as z from 'zod/mini';
import type * as Compile from './compile.js';

let compileModule: typeof Compile | undefined;
let compileLoading: Promise<typeof Compile> | undefined;

/** Imports the schema compiler once. */
export function loadCompiler(): Promise<typeof Compile> {
  compileLoading ??= import('./compile.js').then((module) => {
    compileModule = module;
    return module;
  });
  return compileLoading;
}

/** Whether the compiler is loaded. */
export function compilerReady(): boolean {
  return compileModule !== undefined;
}

/** The compiled form of `schema` once the compiler is loaded; the schema itself before (same results). */
export function fast<T extends z.core.$ZodType>(schema: T): T {
  return compileModule ? compileModule.compiled(schema) : schema;
}
