/**
 * Validation failures in the changesets' error shape, `{ "<field path>": ["<message>", …] }`: a
 * dotted path into the value (`items.0.qty`), the empty string for the value itself (a missing
 * body). Ajv's errors and Standard Schema issues both end up here.
 */
import type { ErrorObject } from 'ajv'
import type { StandardSchemaV1 } from '../contracts/standard-schema.ts'

/** Messages per field path, as a 422 reply carries them under `errors`. */
export type FieldErrors = Record<string, string[]>

/** Adds one message under `path`, once. */
export function addError(errors: FieldErrors, path: string, message: string): void {
  const list = (errors[path] ??= [])
  if (!list.includes(message)) list.push(message)
}

/** `/items/0/qty` (a JSON Pointer, as Ajv reports) → `items.0.qty`. */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return ''
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')
}

const join = (base: string, key: string) => (base === '' ? key : `${base}.${key}`)

/** What a missing required property is told, in the words of the changesets' `validateRequired`. */
export const BLANK = "can't be blank"

/**
 * Ajv's errors as field errors. A missing required property is reported on the property itself
 * (`title: ["can't be blank"]`), as a changeset reports a blank field, not on its parent; other
 * messages are Ajv's (`must be integer`, `must be >= 1`).
 */
export function fromAjv(errors: readonly ErrorObject[], into: FieldErrors = {}): FieldErrors {
  for (const e of errors) {
    const at = pointerToPath(e.instancePath)
    if (e.keyword === 'required')
      addError(into, join(at, String((e.params as { missingProperty: string }).missingProperty)), BLANK)
    else if (e.keyword === 'additionalProperties')
      addError(
        into,
        join(at, String((e.params as { additionalProperty: string }).additionalProperty)),
        'is not allowed',
      )
    else addError(into, at, e.message ?? `fails ${e.keyword}`)
  }
  return into
}

const segmentKey = (s: PropertyKey | StandardSchemaV1.PathSegment): PropertyKey =>
  typeof s === 'object' && s !== null ? s.key : s

/** A Standard Schema library's issues as field errors: its path segments joined with dots. */
export function fromIssues(issues: readonly StandardSchemaV1.Issue[], into: FieldErrors = {}): FieldErrors {
  for (const issue of issues)
    addError(into, (issue.path ?? []).map((s) => String(segmentKey(s))).join('.'), issue.message)
  return into
}

/** The first problem as one line, `at items.0.qty: must be integer`, for logs and 500 messages. */
export function firstProblem(errors: FieldErrors): string {
  const [path, messages] = Object.entries(errors)[0] ?? ['', ['is invalid']]
  return `at ${path === '' ? '(the body itself)' : path}: ${messages[0]}`
}
