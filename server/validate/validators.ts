/**
 * One check function per schema, made once at start-up: a JSON Schema (a `priv/schemas` name)
 * compiled by Ajv, or a Standard Schema object called through `~standard.validate` (which may
 * return a promise). Each gives the value as validated (Ajv's coercions and defaults applied) or
 * the field errors.
 *
 * Three Ajv instances, one per way of checking, each holding every named schema (so one file may
 * `$ref` another as `other.json`):
 * - `input` (query, path parameters, headers): `coerceTypes: 'array'` (strings to integers,
 *   numbers and booleans; a single value to a one-item array) and defaults filled in, on a copy;
 * - `body`: no coercion (a JSON `"1"` stays a string), defaults filled in;
 * - `reply` (response checks): no coercion, no defaults, never changes the body.
 */
import Ajv from 'ajv'
import type { ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { SchemaRef } from '../contracts/routes.ts'
import type { StandardSchemaV1 } from '../contracts/standard-schema.ts'
import type { FieldErrors } from './field-errors.ts'
import { fromAjv, fromIssues } from './field-errors.ts'
import type { NamedSchemas } from './named-schemas.ts'
import { SCHEMAS_DIR } from './named-schemas.ts'

/** A check's outcome: the validated value, or what is wrong with it. */
export type CheckResult =
  | { readonly value: unknown; readonly errors?: undefined }
  | { readonly value?: undefined; readonly errors: FieldErrors }

/** Checks one value against one schema; a promise only when a Standard Schema library returns one. */
export type Validator = (value: unknown) => CheckResult | Promise<CheckResult>

export type CheckMode = 'input' | 'body' | 'reply'

const isThenable = <T>(v: T | PromiseLike<T>): v is PromiseLike<T> =>
  typeof (v as { then?: unknown } | null)?.then === 'function'

/** Whether `ref` is a Standard Schema object (it has a `~standard` property with `validate`). */
export function isStandardSchema(ref: unknown): ref is StandardSchemaV1 {
  const props = (ref as { '~standard'?: { validate?: unknown } } | null)?.['~standard']
  return typeof props === 'object' && props !== null && typeof props.validate === 'function'
}

function standardValidator(schema: StandardSchemaV1): Validator {
  const props = schema['~standard']
  const settle = (r: StandardSchemaV1.Result<unknown>): CheckResult =>
    r.issues ? { errors: fromIssues(r.issues) } : { value: r.value }
  return (value) => {
    const r = props.validate(value)
    return isThenable(r) ? Promise.resolve(r).then(settle) : settle(r)
  }
}

function ajvValidator(fn: ValidateFunction): Validator {
  return (value) => (fn(value) ? { value } : { errors: fromAjv(fn.errors ?? []) })
}

/** Makes the validators of one app: each named schema is compiled once per mode, on first use. */
export class Validators {
  readonly #named: NamedSchemas
  readonly #ajv = new Map<CheckMode, Ajv>()

  constructor(named: NamedSchemas) {
    this.#named = named
  }

  /** The check for `ref` in `mode`; throws (with `where` in the message) for an unknown name or a schema Ajv refuses. */
  for(ref: SchemaRef, mode: CheckMode, where: string): Validator {
    if (isStandardSchema(ref)) return standardValidator(ref)
    if (typeof ref !== 'string')
      throw new Error(
        `${where} must be the name of a ${SCHEMAS_DIR}/<name>.json file or a Standard Schema object (zod, valibot, …)`,
      )
    if (!Object.hasOwn(this.#named, ref)) {
      const known = Object.keys(this.#named)
      throw new Error(
        `${where} names ${SCHEMAS_DIR}/${ref}.json, which does not exist (${known.length ? `known: ${known.join(', ')}` : `no ${SCHEMAS_DIR}/*.json found`})`,
      )
    }
    let fn: ValidateFunction | undefined
    try {
      fn = this.#instance(mode).getSchema(keyOf(ref, this.#named[ref]!))
    } catch (err) {
      throw new Error(`${where}: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
    }
    if (!fn) throw new Error(`${where}: ${SCHEMAS_DIR}/${ref}.json could not be compiled`)
    return ajvValidator(fn)
  }

  #instance(mode: CheckMode): Ajv {
    let ajv = this.#ajv.get(mode)
    if (ajv) return ajv
    ajv = new Ajv({
      // Every problem of a request at once, as a form shows them; a reply check needs the first.
      allErrors: mode !== 'reply',
      coerceTypes: mode === 'input' ? 'array' : false,
      useDefaults: mode !== 'reply',
      // Hand-written and generated schemas carry annotations (`example`, `x-*`) Ajv's strict mode refuses.
      strict: false,
    })
    addFormats(ajv)
    for (const [name, schema] of Object.entries(this.#named)) {
      try {
        ajv.addSchema(schema, hasId(schema) ? undefined : `${name}.json`)
      } catch (err) {
        throw new Error(
          `${SCHEMAS_DIR}/${name}.json is not a valid JSON Schema: ${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        )
      }
    }
    this.#ajv.set(mode, ajv)
    return ajv
  }
}

const hasId = (schema: object): schema is { $id: string } => typeof (schema as { $id?: unknown }).$id === 'string'
const keyOf = (name: string, schema: object) => (hasId(schema) ? schema.$id : `${name}.json`)
