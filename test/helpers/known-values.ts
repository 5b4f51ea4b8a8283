/**
 * The open-enum values of a body that its schema does not know: what the schema tests use to hold
 * each fixture to the known values (`openEnum` registers them in zod's global registry).
 */
import * as z from 'zod/mini';
import type { ValidationIssue } from '../../src/core/errors.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value of an open enum that the schema does not list, by its path. */
export type UnknownEnumValue = ValidationIssue & { value: string };

/** The metadata key under which an open enum lists its known values. */
const KNOWN_VALUES = 'knownValues';

type Def = z.core.$ZodTypeDef & Record<string, unknown>;
const defOf = (schema: unknown) => (schema as z.core.$ZodType)._zod.def as Def;
const knownOf = (schema: z.core.$ZodType) =>
  z.globalRegistry.get(schema)?.[KNOWN_VALUES] as unknown[] | undefined;
/** The schemas inside `def`: an object's fields, an array's element, union branches, wrapped schemas. */
const partsOf = (def: Def) =>
  [def.innerType, def.in, def.element, def.valueType, def.left, def.right]
    .concat(def.options ?? [], Object.values(def.shape ?? {}))
    .filter(Boolean) as z.core.$ZodType[];

/** Whether an open enum sits below `schema` (a lazy schema may hold one; worked out at each level: test schemas are shallow). */
function holdsEnum(schema: z.core.$ZodType): boolean {
  return (
    defOf(schema).type === 'lazy' || Array.isArray(knownOf(schema)) || partsOf(defOf(schema)).some(holdsEnum)
  );
}

/** Walks `value` along `schema`, into the parts that hold open enums only; pushes each unknown value. */
function walk(schema: z.core.$ZodType, value: unknown, path: string, out: UnknownEnumValue[]): void {
  if (!holdsEnum(schema)) return;
  const def = defOf(schema);
  const known = knownOf(schema);
  const shape = def.shape as Record<string, z.core.$ZodType> | undefined;
  if (known) {
    if (typeof value === 'string' && !known.includes(value))
      out.push({ path, message: `expected one of ${known.map((v) => `'${String(v)}'`).join(', ')}`, value });
  } else if (def.type === 'object' || def.type === 'array' || def.type === 'record') {
    if (!isObject(value) && !Array.isArray(value)) return;
    const item = (def.element ?? def.valueType) as z.core.$ZodType;
    for (const key in shape ?? value) {
      const at = def.type === 'array' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (Object.hasOwn(value, key)) walk(shape?.[key] ?? item, value[key as never], at, out);
    }
  } else {
    // Wrappers (optional, nullable, default, …), a pipe's input side (the wire), union branches.
    const parts = def.type === 'lazy' ? [(def.getter as () => z.core.$ZodType)()] : partsOf(def);
    for (const part of parts) walk(part, value, path, out);
  }
}

/**
 * The values of `body` that sit in an open enum of `schema` but are not among its known values,
 * each as an issue naming its path (`items[2].status: expected one of …`), once per path (union
 * branches may see the same field). Walks only the parts of the schema that hold open enums.
 */
export function unknownEnumValues(schema: z.core.$ZodType, body: unknown): UnknownEnumValue[] {
  const out: UnknownEnumValue[] = [];
  walk(schema, body, '', out);
  return out.filter((issue, i) => out.findIndex((o) => o.path === issue.path) === i);
}
