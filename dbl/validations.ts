/**
 * Validations over a changeset, with Ecto's messages. Except for `validateRequired`, each one looks
 * only at a field's change and skips it when the field is unchanged or null, so validations compose
 * in any order and re-running one over valid data adds nothing.
 */
import { addError, getField, type Changeset, type FieldOf } from './changeset.ts'
import type { AnySchema, FieldType, Schema } from './schema.ts'

/** The fields of `S` holding a list of values (`{ array: T }` columns): what `validateSubset` checks. */
export type ListFieldOf<S extends AnySchema> =
  S extends Schema<infer F, infer _A>
    ? {
        [K in keyof F]: (F[K] extends { readonly type: infer T } ? T : F[K]) extends { readonly array: FieldType }
          ? K
          : never
      }[keyof F] &
        string
    : never

/** The `message` option every validation takes. */
export interface MessageOption {
  /** Replaces the default message; `%{count}` / `%{number}` placeholders still work. */
  readonly message?: string
}

function changed(cs: Changeset, field: string): unknown {
  const value = (cs.changes as Record<string, unknown>)[field]
  return value === undefined ? null : value
}

function hasError(cs: Changeset, field: string): boolean {
  return cs.errors.some((e) => e.field === field)
}

/**
 * "can't be blank" for each field whose resulting value is null, missing, or a string of only
 * whitespace. A field that already has an error (e.g. "is invalid" from cast) gets no second one.
 *
 * @example
 * const cs = validateRequired(cast(Product, null, body, ['name', 'price']), ['name', 'price'])
 * errorsToJson(cs) // { name: ["can't be blank"] } for body { name: ' ', price: 100 }
 */
export function validateRequired<S extends AnySchema>(
  cs: Changeset<S>,
  fields: readonly FieldOf<S>[],
  opts: MessageOption = {},
): Changeset<S> {
  let out = cs
  for (const field of fields) {
    if (!cs.schema.fieldsByName[field]) throw new Error(`schema ${cs.schema.table} has no field "${field}"`)
    const value = getField(cs, field)
    const blank = value === null || value === undefined || (typeof value === 'string' && value.trim() === '')
    if (blank && !hasError(cs, field))
      out = addError(out, field, opts.message ?? "can't be blank", { validation: 'required' })
  }
  return out
}

/** The bounds `validateLength` checks (`min`, `max`, exactly `is`) and what a string's length counts. */
export interface LengthOptions extends MessageOption {
  readonly min?: number
  readonly max?: number
  readonly is?: number
  /** What a string's length counts (Ecto's default: graphemes). Arrays always count items. */
  readonly count?: 'graphemes' | 'codepoints' | 'bytes'
}

// Made on first use: building a segmenter loads ICU's break data (tens of ms), which importing
// `vela/dbl` should not pay.
let segmenter: Intl.Segmenter | undefined

function lengthOf(value: string, count: LengthOptions['count']): number {
  if (count === 'bytes') return Buffer.byteLength(value)
  if (count === 'codepoints') return [...value].length
  let n = 0
  for (const _ of (segmenter ??= new Intl.Segmenter()).segment(value)) n++
  return n
}

/**
 * A string's or a list's length within bounds. Strings: "should be at least / at most / %{count}
 * character(s)"; arrays: "should have … item(s)".
 *
 * @example
 * const cs = validateLength(cast(User, {}, body, ['name']), 'name', { min: 3, max: 40 })
 * errorsToJson(cs) // { name: ['should be at least 3 character(s)'] } for name: 'al'
 */
export function validateLength<S extends AnySchema>(
  cs: Changeset<S>,
  field: FieldOf<S>,
  opts: LengthOptions,
): Changeset<S> {
  const value = changed(cs, field)
  if (typeof value !== 'string' && !Array.isArray(value)) return cs
  const isList = Array.isArray(value)
  const length = isList ? value.length : lengthOf(value, opts.count)
  const unit = isList ? 'item(s)' : opts.count === 'bytes' ? 'byte(s)' : 'character(s)'
  const verb = isList ? 'should have' : 'should be'
  const type = isList ? 'list' : opts.count === 'bytes' ? 'binary' : 'string'
  const fail = (kind: 'is' | 'min' | 'max', count: number, text: string) =>
    addError(cs, field, opts.message ?? text, { count, validation: 'length', kind, type })
  if (opts.is !== undefined && length !== opts.is) return fail('is', opts.is, `${verb} %{count} ${unit}`)
  if (opts.min !== undefined && length < opts.min) return fail('min', opts.min, `${verb} at least %{count} ${unit}`)
  if (opts.max !== undefined && length > opts.max) return fail('max', opts.max, `${verb} at most %{count} ${unit}`)
  return cs
}

/** The comparisons `validateNumber` checks a number against. */
export interface NumberOptions extends MessageOption {
  readonly lessThan?: number
  readonly greaterThan?: number
  readonly lessThanOrEqualTo?: number
  readonly greaterThanOrEqualTo?: number
  readonly equalTo?: number
  readonly notEqualTo?: number
}

const numberRules = [
  ['lessThan', 'must be less than %{number}', (v: number, n: number) => v < n],
  ['greaterThan', 'must be greater than %{number}', (v: number, n: number) => v > n],
  ['lessThanOrEqualTo', 'must be less than or equal to %{number}', (v: number, n: number) => v <= n],
  ['greaterThanOrEqualTo', 'must be greater than or equal to %{number}', (v: number, n: number) => v >= n],
  ['equalTo', 'must be equal to %{number}', (v: number, n: number) => v === n],
  ['notEqualTo', 'must be not equal to %{number}', (v: number, n: number) => v !== n],
] as const

/**
 * A number's comparisons with bounds ("must be greater than or equal to %{number}", …). One error
 * at most: the first failing rule in the order `lessThan`, `greaterThan`, `lessThanOrEqualTo`,
 * `greaterThanOrEqualTo`, `equalTo`, `notEqualTo` (as Ecto).
 *
 * @example
 * const cs = validateNumber(cast(Product, null, body, ['price']), 'price', { greaterThanOrEqualTo: 0 })
 * errorsToJson(cs) // { price: ['must be greater than or equal to 0'] } for price: -5
 */
export function validateNumber<S extends AnySchema>(
  cs: Changeset<S>,
  field: FieldOf<S>,
  opts: NumberOptions,
): Changeset<S> {
  const value = changed(cs, field)
  if (typeof value !== 'number') return cs
  for (const [kind, text, holds] of numberRules) {
    const number = opts[kind]
    if (number !== undefined && !holds(value, number)) {
      return addError(cs, field, opts.message ?? text, { validation: 'number', kind, number })
    }
  }
  return cs
}

/**
 * A string matching a regular expression; otherwise "has invalid format".
 *
 * @example
 * const cs = validateFormat(cast(User, {}, body, ['email']), 'email', /^[^\s@]+@[^\s@]+$/)
 * errorsToJson(cs) // { email: ['has invalid format'] } for email: 'nobody'
 */
export function validateFormat<S extends AnySchema>(
  cs: Changeset<S>,
  field: FieldOf<S>,
  format: RegExp,
  opts: MessageOption = {},
): Changeset<S> {
  const value = changed(cs, field)
  if (typeof value !== 'string') return cs
  // A global/sticky regexp keeps lastIndex between calls; test a fresh copy so results don't alternate.
  const re = format.global || format.sticky ? new RegExp(format.source, format.flags.replace(/[gy]/g, '')) : format
  return re.test(value) ? cs : addError(cs, field, opts.message ?? 'has invalid format', { validation: 'format' })
}

/**
 * A value that is one of `values`; otherwise "is invalid".
 *
 * @example
 * const cs = validateInclusion(cast(Order, null, body, ['status']), 'status', ['open', 'paid', 'shipped'])
 * errorsToJson(cs) // { status: ['is invalid'] } for status: 'lost'
 */
export function validateInclusion<S extends AnySchema>(
  cs: Changeset<S>,
  field: FieldOf<S>,
  values: readonly unknown[],
  opts: MessageOption = {},
): Changeset<S> {
  const value = changed(cs, field)
  if (value === null || values.includes(value)) return cs
  return addError(cs, field, opts.message ?? 'is invalid', { validation: 'inclusion', enum: values })
}

/**
 * A value that is none of `values`; otherwise "is reserved".
 *
 * @example
 * const cs = validateExclusion(cast(User, {}, body, ['name']), 'name', ['admin', 'root'])
 * errorsToJson(cs) // { name: ['is reserved'] } for name: 'admin'
 */
export function validateExclusion<S extends AnySchema>(
  cs: Changeset<S>,
  field: FieldOf<S>,
  values: readonly unknown[],
  opts: MessageOption = {},
): Changeset<S> {
  const value = changed(cs, field)
  if (value === null || !values.includes(value)) return cs
  return addError(cs, field, opts.message ?? 'is reserved', { validation: 'exclusion', enum: values })
}

/**
 * A custom validation: `check` returns error messages for the changed value (empty = fine). It is
 * not called when the field is unchanged or null.
 *
 * @example
 * const cs = validateChange(cast(Event, null, body, ['starts_at']), 'starts_at', (_field, value) =>
 *   (value as Date) < new Date() ? ['must be in the future'] : [],
 * )
 */
export function validateChange<S extends AnySchema, K extends FieldOf<S>>(
  cs: Changeset<S>,
  field: K,
  check: (field: K, value: unknown) => readonly string[],
): Changeset<S> {
  const value = changed(cs, field)
  if (value === null) return cs
  return check(field, value).reduce((acc, message) => addError(acc, field, message, { validation: 'custom' }), cs)
}

/** Options of `validateConfirmation`. */
export interface ConfirmationOptions extends MessageOption {
  /** "can't be blank" on `<field>_confirmation` when the params lack it (default: a missing confirmation passes). */
  readonly required?: boolean
}

/**
 * When `field` changes, the params must carry `<field>_confirmation` with the same value as the
 * params' `field` (compared as sent, before casting); otherwise "does not match confirmation" on
 * `<field>_confirmation` (Ecto puts it there too, next to the input the user retypes). The
 * confirmation needs no schema field; declare one `virtual: true` to cast and validate it further.
 *
 * @example
 * const cs = validateConfirmation(cast(User, {}, body, ['email', 'password']), 'password')
 * errorsToJson(cs) // { password_confirmation: ['does not match confirmation'] } when they differ
 */
export function validateConfirmation<S extends AnySchema>(
  cs: Changeset<S>,
  field: FieldOf<S>,
  opts: ConfirmationOptions = {},
): Changeset<S> {
  if (changed(cs, field) === null) return cs
  const key = `${field}_confirmation`
  if (!Object.hasOwn(cs.params, key) || cs.params[key] === undefined) {
    return opts.required ? addError(cs, key, opts.message ?? "can't be blank", { validation: 'confirmation' }) : cs
  }
  if (cs.params[key] === cs.params[field]) return cs
  return addError(cs, key, opts.message ?? 'does not match confirmation', { validation: 'confirmation' })
}

/**
 * For a list field: "has an invalid entry" when any element of the changed list is not one of
 * `values` (Ecto's `validate_subset`); an empty list passes. A field that is not a list
 * (`{ array: T }`) is a mistake in the code, not in the input: it throws at the call, whatever the
 * params hold, as `optimisticLock` and `castEmbed` do for a field of the wrong type.
 *
 * @example
 * const cs = validateSubset(cast(Post, {}, body, ['tags']), 'tags', ['news', 'howto', 'release'])
 * errorsToJson(cs) // { tags: ['has an invalid entry'] } for tags: ['news', 'spam']
 */
export function validateSubset<S extends AnySchema>(
  cs: Changeset<S>,
  field: ListFieldOf<S>,
  values: readonly unknown[],
  opts: MessageOption = {},
): Changeset<S> {
  const f = cs.schema.fieldsByName[field]
  if (!f) throw new Error(`validateSubset: schema ${cs.schema.table} has no field "${field}"`)
  if (typeof f.type !== 'object' || !('array' in f.type))
    throw new Error(
      `validateSubset: ${cs.schema.table}.${field} has type ${typeof f.type === 'string' ? f.type : Object.keys(f.type)[0]}, not a list ({ array: T }); validateInclusion checks one value`,
    )
  const value = changed(cs, field)
  if (!Array.isArray(value) || value.every((v) => values.includes(v))) return cs
  return addError(cs, field, opts.message ?? 'has an invalid entry', { validation: 'subset', enum: values })
}
