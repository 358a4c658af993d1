/**
 * `vela/dbl`: the database layer. Schemas, changesets, the query builder, the repository and
 * migrations (declarative operations, the migrator and the generator that diffs schemas).
 */

// Schemas
export { defineSchema, belongsTo, hasOne, hasMany, manyToMany, timestamps } from './schema.ts'
export type {
  AnySchema,
  Association,
  Associations,
  AssociationsOf,
  AssociationKind,
  Field,
  FieldOptions,
  OnDelete,
  OnUpdate,
  CheckSpec,
  FieldSpec,
  FieldType,
  EmbedType,
  IndexSpec,
  ManyToManyOptions,
  RecordOf,
  ScalarType,
  Schema,
  ScopeFn,
  SchemaDefinition,
  ValueOf,
  HookName,
  Lifecycle,
} from './schema.ts'
// Lifecycle hooks and audit: `hooks` and `audit` of `defineSchema` (hooks.ts declares them).
export type { SchemaHooks, BeforeHookResult, AuditOptions } from './hooks.ts'
export { AuditEntry, AUDIT_TABLE, historyOf } from './audit/entry.ts'
export type { AuditRecord } from './audit/entry.ts'
export { withActor, setActor, currentActor, actorScope, auditActorHandler } from './audit/actor.ts'
export { defineEmbeddedSchema, embedsOne, embedsMany, castEmbed } from './embedded.ts'
export type { CastEmbedOptions, EmbedFieldOf } from './embedded.ts'

// Changesets: each function taking a changeset first is also a method (changeset-methods.ts).
import './changeset-methods.ts'
export {
  cast,
  change,
  putChange,
  getField,
  getChange,
  addError,
  applyChanges,
  errorsToJson,
  errorMessage,
  isChangeset,
} from './changeset.ts'
export type { Changeset, FieldError, ErrorsJson, Action, Params, FieldOf } from './changeset.ts'
export { castAssoc, putAssoc } from './assoc.ts'
export type { AssocEntry, CastAssocOptions } from './assoc.ts'
export { optimisticLock } from './optimistic-lock.ts'
export { prepareChanges } from './prepare.ts'
export type { Prepare } from './prepare.ts'
export type { NumberFieldOf } from './optimistic-lock.ts'
export {
  uniqueConstraint,
  foreignKeyConstraint,
  assocConstraint,
  checkConstraint,
  exclusionConstraint,
  noAssocConstraint,
} from './constraints.ts'

// Validations
export {
  validateRequired,
  validateLength,
  validateNumber,
  validateFormat,
  validateInclusion,
  validateExclusion,
  validateChange,
  validateConfirmation,
  validateSubset,
} from './validations.ts'
export type { LengthOptions, NumberOptions, ConfirmationOptions, ListFieldOf } from './validations.ts'

// Queries: `from(Schema)` and its methods; each method is also a free function taking the query first.
export { from } from './query/builder.ts'
export { unscoped, withDeleted } from './query/scoped.ts'
export { withoutScopes, requestValue } from './scopes.ts'
export type { RequestValue } from './scopes.ts'
export type { RowOf } from './query/builder.ts'
export type { Query, LockMode, LockOptions, QueryOfRows, SameColumns, SetOpKind } from './query/types.ts'
export { cond, and, or, not, exists, between, notBetween, escapeLike } from './query/conditions.ts'
export type { Cond, Clauses, Op, CompareOp, LikeText, Subquery } from './query/types.ts'
export { where, orderBy, limit, offset, select, count } from './query/operators.ts'
export type { Direction, AggregateOf, AggregateValue, SelectedRow, WindowOf, SqlOf } from './query/types.ts'
export { join, leftJoin, groupBy, having, distinct, distinctOn, lock } from './query/join.ts'
export { sum, avg, min, max } from './query/aggregate.ts'
export { union, unionAll, intersect, except } from './query/set-ops.ts'
export { cte } from './query/cte.ts'
export { textSearch, tsRank } from './query/text-search.ts'
export { sql, field, isSql } from './query/fragment.ts'
export type { Sql, FieldRef } from './query/fragment.ts'
export type { TextSearchMode, TextSearchOptions } from './query/text-search.ts'
export { rowNumber, rank, denseRank, over, isWindow } from './query/window.ts'
export type { Window, WindowSpec, RankFn } from './query/window.ts'
export type { Cte, FieldsOfRow } from './query/cte.ts'
export type { Aggregate, AggregateArg, AggregateFn, ArithOp } from './query/aggregate.ts'
export type { AssocPath, Joined, Joins, Ref, ValueAt, NestedRow } from './query/paths.ts'

// Repo
export { defineRepo } from './repo.ts'
export { defineFactory, factory } from './factory.ts'
export type { Factory, FactoryAttrs, FactoryOptions } from './factory.ts'
export type { Repo, RepoConfig } from './repo.ts'
export type { ReplicaConfig } from './repo/replicas.ts'
export { newMulti } from './multi.ts'
export type { Multi, MultiFailure } from './multi.ts'
export type { Ok, Err, Result } from './result.ts'
export type { TransactionResult } from './repo/transaction.ts'
export type {
  InsertOptions,
  MaybeInsertResult,
  OnConflictNothing,
  OnConflictReplace,
  WriteResult,
  DeleteOptions,
} from './repo/write.ts'
export type { Preloaded, PreloadSpec, PreloadItem } from './repo/preload-spec.ts'
export type { StreamOptions } from './repo/stream.ts'
export type { PageOptions, Page, CursorOptions, CursorPage } from './repo/paginate.ts'
export { DEFAULT_DEADLINES } from './deadlines.ts'
export type { DeadlineOptions } from './deadlines.ts'
export type { StartRetryOptions } from './repo/start.ts'
export type { QueryEvent, QueryErrorReason, LogOption } from './repo/telemetry.ts'
// Adapters: a ready one can be given to `defineRepo({ adapter })`, e.g. one PGlite shared by several repos.
export { createPgAdapter } from './adapters/pg.ts'
export type { PgAdapterOptions } from './adapters/pg.ts'
export { createPgliteAdapter } from './adapters/pglite.ts'
export type { PgliteAdapterOptions } from './adapters/pglite.ts'
export type { Adapter, Connection, QueryResult, Row } from './adapters/adapter.ts'

// Errors: reads throw them; writes give `DbError` as `{ ok: false, error }` for what the input caused.
export { DbError, isDbError } from './db-error.ts'
export type { ConstraintKind, DbErrorFields } from './db-error.ts'
export { LoadError } from './load-error.ts'
export { MultipleResultsError } from './multiple-results-error.ts'
export { PaginationError, BAD_PAGINATION } from './pagination-error.ts'
export {
  DbOutcomeUnknownError,
  DbUnavailableError,
  isDbOutcomeUnknown,
  isDbUnavailable,
  DB_OUTCOME_UNKNOWN,
  DB_UNAVAILABLE,
} from './unavailable.ts'
export type { UnavailableReason } from './unavailable.ts'

// Migrations. The migrator's rollback and status are renamed here: `repo.rollback(value)` already
// means "abort this transaction".
export {
  createTable,
  dropTable,
  alterTable,
  addColumn,
  dropColumn,
  renameColumn,
  modifyColumn,
  addForeignKey,
  dropForeignKey,
  setPrimaryKey,
  createIndex,
  dropIndex,
  addCheck,
  dropCheck,
  validateCheck,
  execute,
  defineMigration,
} from './migrations/operations.ts'
export type {
  Operation,
  Column,
  ColumnChange,
  ColumnModification,
  DeferredSql,
  ForeignKey,
  MigrationModule,
  References,
  TableOptions,
} from './migrations/operations.ts'
export { migrate, rollback as rollbackMigrations, status as migrationStatus } from './migrations/migrator.ts'
export type { MigrationStatus, AppliedMigration, MigratorOptions, MigrationTarget } from './migrations/migrator.ts'
export { loadMigrations } from './migrations/load.ts'
export type { Migration } from './migrations/load.ts'
export { generateMigration } from './migrations/generate.ts'
export type { GenerateOptions, GenerateResult } from './migrations/generate.ts'
export { MigrationDecisionError } from './migrations/diff.ts'
export { UnsafeMigrationError } from './migrations/safety.ts'
export type { UnsafeCheck, UnsafeFinding } from './migrations/safety.ts'
export type { SafetyOptions } from './migrations/migrate-safety.ts'
export type { Decisions } from './migrations/diff.ts'

// Deprecated: compare `result.ok` instead (these clash with the plugin `ok` of `vela`).
export { ok, err } from './deprecated.ts'
