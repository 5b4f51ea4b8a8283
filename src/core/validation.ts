/**
 * Validation, imported on first use (`lazy.ts`): zod, the SDK's messages, the schema compiler, and
 * validation on both sides of the wire: requests before they are sent, responses as they arrive,
 * in the mode the caller passes (`'lenient'` or `'off'`).
 *
 * Open enums: a response enum is a `z.string()` registered in `z.globalRegistry` with its known
 * values (`{ knownValues }`, see `openEnum` in the schemas). Any string passes there, so a value
 * the SDK does not know yet never breaks a parse; {@link unknownEnumValues} finds each by its path
 * (the client logs them).
 *
 * Every parse runs the schema it is given: the client passes the compiled form ({@link compiled}).
 * Messages come from the parse context, not from a global zod configuration.
 */
import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { closest, isObject } from './describe.js';
import { RequestValidationError, ResponseValidationError, type ValidationIssue } from './errors.js';

const compiledCache = new WeakMap<z.core.$ZodType, z.core.$ZodType>();

/**
 * The compiled form of a schema (built once per schema). `z.compile` returns the schema itself
 * where it cannot compile it, or the runtime forbids code generation (`new Function`), as some
 * edge runtimes do. A failure is parsed again by the runtime parser, so the messages are the same.
 */
export function compiled<T extends z.core.$ZodType>(schema: T): T {
  let fast = compiledCache.get(schema) as T | undefined;
  if (!fast) {
    fast = z.compile(schema);
    compiledCache.set(schema, fast).set(fast, fast);
  }
  return fast;
}

/** Formats a Zod issue path the way users write it: `items[1].quantity`. */
function formatPath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out;
}

/** Converts Zod issues into the SDK's path + message pairs. */
function toIssues(issues: readonly z.core.$ZodIssue[], prefix = ''): ValidationIssue[] {
  return issues.map((issue) => ({ path: formatPath(issue.path, prefix), message: issue.message }));
}

type Def = {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  element?: unknown;
};
const defOf = (schema: unknown) => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** The field names of the object that `schema` expects at `path` (through optional, arrays, pipes). */
function keysAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  let def = defOf(schema);
  for (let i = 0; def; ) {
    if (def.innerType || def.in) def = defOf(def.innerType ?? def.in);
    else if (def.type === 'array' && i < path.length) {
      def = defOf(def.element);
      i++;
    } else if (def.type !== 'object') return [];
    else if (i === path.length) return Object.keys(def.shape ?? {});
    else def = defOf(def.shape?.[String(path[i++])]);
  }
  return [];
}

/** A request's issues; an unknown field is followed by the known one it most likely meant. */
function requestIssues(schema: z.core.$ZodType, issues: readonly z.core.$ZodIssue[], prefix: string) {
  return toIssues(issues, prefix).map((out, i) => {
    const issue = issues[i]!;
    if (issue.code !== 'unrecognized_keys') return out;
    const known = keysAt(schema, issue.path);
    const meant = issue.keys.flatMap((key) => {
      const near = closest(key, known);
      return near ? [issue.keys.length > 1 ? `"${near}" for "${key}"` : `"${near}"`] : [];
    });
    return meant.length ? { ...out, message: `${out.message} (did you mean ${meant.join(', ')}?)` } : out;
  });
}

const english = en().localeError;

/**
 * The context of every parse of the SDK (zod copies it per parse, so one object serves all). Its
 * messages: those of the app's zod configuration when it sets any (`z.config(…)`; classic `zod`
 * sets English; zod asks it when this map answers nothing), else English. `zod/mini` installs no
 * locale and the SDK leaves the global configuration alone, so English travels with each parse.
 */
const PARSE_CONTEXT: z.core.ParseContext<z.core.$ZodIssue> = {
  error: (issue) =>
    z.config().localeError ? undefined : (z.config().customError?.(issue) ?? english(issue)),
};

/**
 * Validates request input against its schema and returns the wire form (the schema's output).
 * Throws one {@link RequestValidationError} listing every bad field; nothing is sent then.
 */
export function validateRequest<T extends z.core.$ZodType>(
  schema: T,
  value: unknown,
  context?: string,
  prefix = '',
): z.output<T> {
  const result = z.safeParse(schema, value, PARSE_CONTEXT);
  if (result.success) return result.data;
  throw new RequestValidationError(requestIssues(schema, result.error.issues, prefix), context);
}

/** Whether `value` passes `schema` (no messages needed). */
export function accepts(schema: z.core.$ZodType, value: unknown): boolean {
  return z.safeParse(schema, value).success;
}

/** How responses are checked: see `ClientOptions.validateResponses`. @inline */
export type ValidationMode = 'lenient' | 'off';

const arraySchemas = new WeakMap<z.core.$ZodType, z.ZodMiniArray>();

/** `z.array(item)`, built once per item schema (a page's items). */
export function arrayOf(item: z.core.$ZodType): z.ZodMiniArray {
  let schema = arraySchemas.get(item);
  if (!schema) {
    schema = z.array(item);
    arraySchemas.set(item, schema);
  }
  return schema;
}

/** A value of an open enum that the SDK does not know, where it was found. */
export interface UnknownEnumValue extends ValidationIssue {
  /** The value as received. */
  value: string;
}

/**
 * Parses a response body with its schema according to the mode: `'lenient'` keeps unknown keys and
 * enum values, `'off'` returns the body unchecked. A failure is a `ResponseValidationError`
 * keeping the body (the caller adds where it came from).
 */
export function parseResponse<T extends z.core.$ZodType>(
  schema: T,
  body: unknown,
  mode: ValidationMode,
): z.output<T> {
  if (mode === 'off') return body as z.output<T>;
  const result = z.safeParse(schema, body, PARSE_CONTEXT);
  if (result.success) return result.data;
  throw new ResponseValidationError({ body, issues: toIssues(result.error.issues) });
}

/** Finds the unknown values of a value's open enums; pushes one issue per value found. */
type EnumCheck = (value: unknown, path: string, out: UnknownEnumValue[]) => void;

const enumChecks = new WeakMap<z.core.$ZodType, EnumCheck | null>();

/** The metadata key under which an open enum lists its known values. */
export const KNOWN_VALUES = 'knownValues';

const child = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Builds (once per schema) the check of the open enums below `schema`, or `null` when there are
 * none, so a schema without open enums costs nothing. Wrappers (optional, nullable, default, …)
 * are seen through; a pipe is walked on its input side (the wire).
 */
function enumCheckOf(schema: z.core.$ZodType, building = new Set<z.core.$ZodType>()): EnumCheck | null {
  const cached = enumChecks.get(schema);
  if (cached !== undefined || building.has(schema)) return cached ?? null;
  building.add(schema);
  const sub = (s: unknown) => enumCheckOf(s as z.core.$ZodType, building);
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const known = z.globalRegistry.get(schema)?.[KNOWN_VALUES];
  let check: EnumCheck | null = null;
  if (def.type === 'string' && Array.isArray(known)) {
    const values = new Set<unknown>(known);
    const message = `expected one of ${known.map((v) => `'${String(v)}'`).join(', ')}`;
    check = (value, path, out) => {
      if (typeof value === 'string' && !values.has(value)) out.push({ path, message, value });
    };
  } else if (def.type === 'object') {
    const fields = Object.entries(def.shape as Record<string, unknown>)
      .map(([key, field]) => [key, sub(field)] as const)
      .filter((f): f is readonly [string, EnumCheck] => f[1] !== null);
    if (fields.length > 0) {
      check = (value, path, out) => {
        if (isObject(value))
          for (const [key, f] of fields) if (Object.hasOwn(value, key)) f(value[key], child(path, key), out);
      };
    }
  } else if (def.type === 'array') {
    const each = sub(def.element);
    if (each) {
      check = (value, path, out) => {
        if (Array.isArray(value)) for (let i = 0; i < value.length; i++) each(value[i], `${path}[${i}]`, out);
      };
    }
  } else if (def.type === 'record') {
    const each = sub(def.valueType);
    if (each) {
      check = (value, path, out) => {
        if (isObject(value))
          for (const [key, item] of Object.entries(value)) each(item, child(path, key), out);
      };
    }
  } else if (def.type === 'union' || def.type === 'intersection') {
    const branches = (def.type === 'union' ? (def.options as unknown[]) : [def.left, def.right])
      .map(sub)
      .filter((c): c is EnumCheck => c !== null);
    // Several branches may see the same field: each path is reported once.
    check = (value, path, out) => {
      const found: UnknownEnumValue[] = [];
      for (const branch of branches) branch(value, path, found);
      for (const issue of found) if (!out.some((i) => i.path === issue.path)) out.push(issue);
    };
    if (branches.length < 2) check = branches[0] ?? null;
  } else {
    const inner =
      def.innerType ?? def.in ?? (def.type === 'lazy' ? (def.getter as () => unknown)() : undefined);
    if (inner) check = sub(inner);
  }
  building.delete(schema);
  enumChecks.set(schema, check);
  return check;
}

/**
 * The values of `body` that sit in an open enum of `schema` but are not among its known values,
 * each as an issue naming its path (`items[2].status: expected one of …`). Walks only the parts of
 * the schema that hold open enums.
 */
export function unknownEnumValues(schema: z.core.$ZodType, body: unknown): UnknownEnumValue[] {
  const check = enumCheckOf(schema);
  const out: UnknownEnumValue[] = [];
  check?.(body, '', out);
  return out;
}
