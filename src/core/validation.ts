/**
 * Validation on both sides of the wire: requests before they are sent, responses as they arrive,
 * in the mode the caller passes (`'strict'`, `'lenient'` or `'off'`).
 *
 * Open enums: a response enum is a `z.string()` registered in `z.globalRegistry` with its known
 * values (`{ knownValues }`, see `openEnum` in the schemas). Every mode accepts any string there, so
 * a value the SDK does not know yet never breaks a parse; `'strict'` then reports each unknown value
 * by its path (see {@link unknownEnumValues}).
 *
 * Every parse here runs the schema it is given: the client passes the compiled form
 * (`fast` in `lazy-compile.ts`). Messages come from the parse context, not from a global zod configuration.
 */
import * as z from 'zod/mini';
import { ResponseValidationError, type ValidationIssue } from './errors.js';
import { PARSE_CONTEXT, toIssues } from './parse.js';

export { accepts, formatPath, toIssues, validateRequest } from './parse.js';

/** How responses are checked: see `ClientOptions.validateResponses`. */
export type ValidationMode = 'strict' | 'lenient' | 'off';

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

/** Where a response came from, for error messages. */
export interface ResponseContext {
  status?: number;
  method?: string;
  url?: string;
}

/** A value of an open enum that the SDK does not know, where it was found. */
export interface UnknownEnumValue extends ValidationIssue {
  /** The value as received. */
  value: string;
}

/**
 * Parses a response body with its schema according to the mode: `'lenient'` keeps unknown keys and
 * enum values (each unknown value is passed to `onUnknown`, when given), `'strict'` also rejects
 * unknown enum values, `'off'` returns the body unchecked. `schema` is run as given: the client
 * passes its compiled form (`fast(schema)`, whose parts are the schema's own, so the open enums
 * are still found).
 */
export function parseResponse<T extends z.core.$ZodType>(
  schema: T,
  body: unknown,
  mode: ValidationMode,
  context: ResponseContext = {},
  onUnknown?: (found: readonly UnknownEnumValue[]) => void,
): z.output<T> {
  if (mode === 'off') return body as z.output<T>;
  const result = z.safeParse(schema, body, PARSE_CONTEXT);
  const unknown = mode === 'strict' || onUnknown ? unknownEnumValues(schema, body) : [];
  if (result.success && unknown.length === 0) return result.data;
  if (result.success && mode === 'lenient') {
    onUnknown?.(unknown);
    return result.data;
  }
  const issues = [
    ...(result.success ? [] : toIssues(result.error.issues)),
    ...(mode === 'strict' ? unknown.map(({ path, message }) => ({ path, message })) : []),
  ];
  throw new ResponseValidationError({ body, issues, ...context });
}

/** Finds the unknown values of a value's open enums; pushes one issue per value found. */
type EnumCheck = (value: unknown, path: string, out: UnknownEnumValue[]) => void;

const enumChecks = new WeakMap<z.core.$ZodType, EnumCheck | null>();

/** The metadata key under which an open enum lists its known values. */
export const KNOWN_VALUES = 'knownValues';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function combine(checks: readonly EnumCheck[]): EnumCheck | null {
  if (checks.length === 0) return null;
  if (checks.length === 1) return checks[0]!;
  // Several branches of a union may see the same field: report each path once.
  return (value, path, out) => {
    const found: UnknownEnumValue[] = [];
    for (const check of checks) check(value, path, found);
    for (const issue of found) if (!out.some((i) => i.path === issue.path)) out.push(issue);
  };
}

/**
 * Builds (once per schema) the check of the open enums below `schema`, or `null` when there are
 * none, so a schema without open enums costs nothing.
 */
function enumCheckOf(schema: z.core.$ZodType, building = new Set<z.core.$ZodType>()): EnumCheck | null {
  const cached = enumChecks.get(schema);
  if (cached !== undefined) return cached;
  if (building.has(schema)) return null;
  building.add(schema);
  const sub = (s: unknown) => enumCheckOf(s as z.core.$ZodType, building);
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  let check: EnumCheck | null = null;
  switch (def.type) {
    case 'string': {
      const values = z.globalRegistry.get(schema)?.[KNOWN_VALUES];
      if (Array.isArray(values)) {
        const known = new Set<unknown>(values);
        const message = `expected one of ${values.map((v) => `'${String(v)}'`).join(', ')}`;
        check = (value, path, out) => {
          if (typeof value === 'string' && !known.has(value)) out.push({ path, message, value });
        };
      }
      break;
    }
    case 'object': {
      const fields: [string, EnumCheck][] = [];
      for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) {
        const fieldCheck = sub(field);
        if (fieldCheck) fields.push([key, fieldCheck]);
      }
      if (fields.length > 0) {
        check = (value, path, out) => {
          if (!isRecord(value)) return;
          for (const [key, fieldCheck] of fields) {
            if (Object.hasOwn(value, key)) fieldCheck(value[key], child(path, key), out);
          }
        };
      }
      break;
    }
    case 'array': {
      const element = sub(def.element);
      if (element) {
        check = (value, path, out) => {
          if (!Array.isArray(value)) return;
          for (let i = 0; i < value.length; i++) element(value[i], `${path}[${i}]`, out);
        };
      }
      break;
    }
    case 'record': {
      const entry = sub(def.valueType);
      if (entry) {
        check = (value, path, out) => {
          if (isRecord(value))
            for (const [key, item] of Object.entries(value)) entry(item, child(path, key), out);
        };
      }
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      check = sub(def.innerType);
      break;
    case 'pipe':
      // The input side describes the wire (a transform's output is not walked).
      check = sub(def.in);
      break;
    case 'lazy':
      check = sub((def.getter as () => unknown)());
      break;
    case 'union':
      check = combine((def.options as unknown[]).map(sub).filter((c): c is EnumCheck => c !== null));
      break;
    case 'intersection':
      check = combine([sub(def.left), sub(def.right)].filter((c): c is EnumCheck => c !== null));
      break;
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
