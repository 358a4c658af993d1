/**
 * The changeset methods: each function that takes a changeset first and returns one, on the
 * changesets' prototype, so `cs.validateRequired(['name'])` is `validateRequired(cs, ['name'])`.
 * The methods are declared on `Changeset` here rather than in changeset.ts: their option types
 * live next to their functions, which import changeset.ts, so declaring them there would make a
 * cycle. vela/dbl's index.ts loads this file, as the query methods are loaded.
 */
import { castAssoc, putAssoc, type AssocEntry, type CastAssocOptions } from './assoc.ts'
import { addError, ChangesetValue, putChange, type Changeset, type FieldOf } from './changeset.ts'
import {
  assocConstraint,
  checkConstraint,
  exclusionConstraint,
  foreignKeyConstraint,
  noAssocConstraint,
  uniqueConstraint,
  type ConstraintOptions,
} from './constraints.ts'
import { castEmbed, type CastEmbedOptions, type EmbedFieldOf } from './embedded.ts'
import { optimisticLock, type NumberFieldOf } from './optimistic-lock.ts'
import { prepareChanges, type Prepare } from './prepare.ts'
import type { AnySchema, RecordOf } from './schema.ts'
import {
  validateChange,
  validateConfirmation,
  validateExclusion,
  validateFormat,
  validateInclusion,
  validateLength,
  validateNumber,
  validateRequired,
  validateSubset,
  type ConfirmationOptions,
  type LengthOptions,
  type ListFieldOf,
  type MessageOption,
  type NumberOptions,
} from './validations.ts'

declare module './changeset.ts' {
  interface Changeset<S extends AnySchema = AnySchema> {
    /** `validateRequired(cs, fields)` as a method: "can't be blank" for each field without a value. */
    validateRequired(fields: readonly FieldOf<S>[], opts?: MessageOption): Changeset<S>
    /** `validateLength(cs, field, opts)` as a method: a string's or list's length within bounds. */
    validateLength(field: FieldOf<S>, opts: LengthOptions): Changeset<S>
    /** `validateNumber(cs, field, opts)` as a method: a number's comparisons with bounds. */
    validateNumber(field: FieldOf<S>, opts: NumberOptions): Changeset<S>
    /** `validateFormat(cs, field, format)` as a method: a string matching a regular expression. */
    validateFormat(field: FieldOf<S>, format: RegExp, opts?: MessageOption): Changeset<S>
    /** `validateInclusion(cs, field, values)` as a method: a value that is one of `values`. */
    validateInclusion(field: FieldOf<S>, values: readonly unknown[], opts?: MessageOption): Changeset<S>
    /** `validateExclusion(cs, field, values)` as a method: a value that is none of `values`. */
    validateExclusion(field: FieldOf<S>, values: readonly unknown[], opts?: MessageOption): Changeset<S>
    /** `validateChange(cs, field, check)` as a method: `check` returns error messages for the changed value. */
    validateChange<K extends FieldOf<S>>(field: K, check: (field: K, value: unknown) => readonly string[]): Changeset<S>
    /** `validateConfirmation(cs, field)` as a method: the params' `<field>_confirmation` must match. */
    validateConfirmation(field: FieldOf<S>, opts?: ConfirmationOptions): Changeset<S>
    /** `validateSubset(cs, field, values)` as a method: every element of a list field is one of `values`. */
    validateSubset(field: ListFieldOf<S>, values: readonly unknown[], opts?: MessageOption): Changeset<S>
    /** `putChange(cs, field, value)` as a method: one field's change, uncast. */
    putChange<K extends FieldOf<S>>(field: K, value: RecordOf<S>[K]): Changeset<S>
    /**
     * Several fields' changes at once, uncast (`putChange` for each; Ecto's `change/2` on a
     * changeset): a value equal to the record's current one removes that field's change.
     *
     * @example
     * cs = cs.change({ status: 'paid', paid_at: new Date() })
     */
    change(changes: Partial<RecordOf<S>>): Changeset<S>
    /** `addError(cs, field, message, meta)` as a method: an error on `field`; the changeset becomes invalid. */
    addError(field: string, message: string, meta?: Record<string, unknown>): Changeset<S>
    /** `uniqueConstraint(cs, fields)` as a method: its violation becomes "has already been taken". */
    uniqueConstraint(fields: FieldOf<S> | readonly FieldOf<S>[], opts?: ConstraintOptions): Changeset<S>
    /** `foreignKeyConstraint(cs, field)` as a method: a missing referenced row becomes "does not exist". */
    foreignKeyConstraint(field: FieldOf<S>, opts?: ConstraintOptions): Changeset<S>
    /** `assocConstraint(cs, assoc)` as a method: "does not exist" on the belongsTo association. */
    assocConstraint(assoc: string, opts?: ConstraintOptions): Changeset<S>
    /** `checkConstraint(cs, field, { name })` as a method: a CHECK violation becomes "is invalid". */
    checkConstraint(field: FieldOf<S>, opts: ConstraintOptions & { readonly name: string }): Changeset<S>
    /** `exclusionConstraint(cs, field)` as a method: an EXCLUDE violation becomes a field error. */
    exclusionConstraint(field: FieldOf<S>, opts?: ConstraintOptions): Changeset<S>
    /** `noAssocConstraint(cs, assoc)` as a method: deleting a still referenced parent becomes a field error. */
    noAssocConstraint(assoc: string, opts?: ConstraintOptions): Changeset<S>
    /** `castAssoc(cs, name, opts)` as a method: nested params into child changesets. */
    castAssoc(name: string, opts?: CastAssocOptions): Changeset<S>
    /** `putAssoc(cs, name, children)` as a method: children given directly. */
    putAssoc(name: string, children: readonly AssocEntry[] | Record<string, unknown> | null): Changeset<S>
    /** `castEmbed(cs, name, opts)` as a method: nested params into the embedded field. */
    castEmbed(name: EmbedFieldOf<S>, opts?: CastEmbedOptions): Changeset<S>
    /** `optimisticLock(cs, field)` as a method: the write also matches the version it read, and bumps it. */
    optimisticLock(field: NumberFieldOf<S>, incrementer?: (current: number | null) => number): Changeset<S>
    /**
     * `prepareChanges(cs, fn)` as a method: `fn(cs, repo)` runs inside the write's transaction just
     * before the write, and gives the changeset to write.
     *
     * @example
     * cs = cs.prepareChanges(async (cs, repo) => cs.putChange('position', (await repo.count(from(Item))) + 1))
     */
    prepareChanges(fn: Prepare<S>): Changeset<S>
  }
}

// The functions' generic signatures are checked on `Changeset`'s methods; here each is called as a
// plain function, bound once to a constant, and each method passes its arguments on one by one
// rather than spreading them: a changeset is built on every write request.
type Plain = (...args: unknown[]) => Changeset
const fns = {
  validateRequired: validateRequired as Plain,
  validateLength: validateLength as Plain,
  validateNumber: validateNumber as Plain,
  validateFormat: validateFormat as Plain,
  validateInclusion: validateInclusion as Plain,
  validateExclusion: validateExclusion as Plain,
  validateChange: validateChange as Plain,
  validateConfirmation: validateConfirmation as Plain,
  validateSubset: validateSubset as Plain,
  putChange: putChange as Plain,
  addError: addError as Plain,
  uniqueConstraint: uniqueConstraint as Plain,
  foreignKeyConstraint: foreignKeyConstraint as Plain,
  assocConstraint: assocConstraint as Plain,
  checkConstraint: checkConstraint as Plain,
  exclusionConstraint: exclusionConstraint as Plain,
  noAssocConstraint: noAssocConstraint as Plain,
  castAssoc: castAssoc as Plain,
  putAssoc: putAssoc as Plain,
  castEmbed: castEmbed as Plain,
  optimisticLock: optimisticLock as Plain,
  prepareChanges: prepareChanges as Plain,
}

const methods = {
  validateRequired(this: Changeset, fields: unknown, opts?: unknown) {
    return fns.validateRequired(this, fields, opts)
  },
  validateLength(this: Changeset, field: unknown, opts: unknown) {
    return fns.validateLength(this, field, opts)
  },
  validateNumber(this: Changeset, field: unknown, opts: unknown) {
    return fns.validateNumber(this, field, opts)
  },
  validateFormat(this: Changeset, field: unknown, format: unknown, opts?: unknown) {
    return fns.validateFormat(this, field, format, opts)
  },
  validateInclusion(this: Changeset, field: unknown, values: unknown, opts?: unknown) {
    return fns.validateInclusion(this, field, values, opts)
  },
  validateExclusion(this: Changeset, field: unknown, values: unknown, opts?: unknown) {
    return fns.validateExclusion(this, field, values, opts)
  },
  validateChange(this: Changeset, field: unknown, check: unknown) {
    return fns.validateChange(this, field, check)
  },
  validateConfirmation(this: Changeset, field: unknown, opts?: unknown) {
    return fns.validateConfirmation(this, field, opts)
  },
  validateSubset(this: Changeset, field: unknown, values: unknown, opts?: unknown) {
    return fns.validateSubset(this, field, values, opts)
  },
  putChange(this: Changeset, field: unknown, value: unknown) {
    return fns.putChange(this, field, value)
  },
  change(this: Changeset, changes: Record<string, unknown>) {
    let out = this
    for (const field in changes) out = fns.putChange(out, field, changes[field])
    return out
  },
  addError(this: Changeset, field: unknown, message: unknown, meta?: unknown) {
    return fns.addError(this, field, message, meta)
  },
  uniqueConstraint(this: Changeset, fields: unknown, opts?: unknown) {
    return fns.uniqueConstraint(this, fields, opts)
  },
  foreignKeyConstraint(this: Changeset, field: unknown, opts?: unknown) {
    return fns.foreignKeyConstraint(this, field, opts)
  },
  assocConstraint(this: Changeset, assoc: unknown, opts?: unknown) {
    return fns.assocConstraint(this, assoc, opts)
  },
  checkConstraint(this: Changeset, field: unknown, opts: unknown) {
    return fns.checkConstraint(this, field, opts)
  },
  exclusionConstraint(this: Changeset, field: unknown, opts?: unknown) {
    return fns.exclusionConstraint(this, field, opts)
  },
  noAssocConstraint(this: Changeset, assoc: unknown, opts?: unknown) {
    return fns.noAssocConstraint(this, assoc, opts)
  },
  castAssoc(this: Changeset, name: unknown, opts?: unknown) {
    return fns.castAssoc(this, name, opts)
  },
  putAssoc(this: Changeset, name: unknown, children: unknown) {
    return fns.putAssoc(this, name, children)
  },
  castEmbed(this: Changeset, name: unknown, opts?: unknown) {
    return fns.castEmbed(this, name, opts)
  },
  optimisticLock(this: Changeset, field: unknown, incrementer?: unknown) {
    return fns.optimisticLock(this, field, incrementer)
  },
  prepareChanges(this: Changeset, fn: unknown) {
    return fns.prepareChanges(this, fn)
  },
}

for (const name of Object.keys(methods) as (keyof typeof methods)[]) {
  Object.defineProperty(ChangesetValue.prototype, name, { value: methods[name], writable: true, configurable: true })
}
