/**
 * Operations → the TypeScript source of a migration file. The output is meant to be read and edited
 * by people: one helper call per operation, one column per line, only non-default options.
 */
import type { ColumnChange, Operation } from './operations.ts'
import type { UnsafeCheck } from './safety.ts'

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** A JS literal for a value found in operations: strings, numbers, booleans, null, Dates, arrays, plain objects. */
export function literal(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string')
    return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n').replaceAll('\r', '\\r')}'`
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} into a migration file`)
    return Object.is(value, -0) ? '0' : String(value)
  }
  if (typeof value === 'boolean') return String(value)
  if (value instanceof Date) return `new Date(${literal(value.toISOString())})`
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    if (entries.length === 0) return '{}'
    return `{ ${entries.map(([k, v]) => `${IDENTIFIER.test(k) ? k : literal(k)}: ${literal(v)}`).join(', ')} }`
  }
  throw new Error(`cannot write ${String(value)} into a migration file`)
}

function change(c: ColumnChange): { helper: string; code: string } {
  switch (c.change) {
    case 'addColumn':
      return { helper: 'addColumn', code: `addColumn(${literal(c.column)})` }
    case 'dropColumn':
      return { helper: 'dropColumn', code: `dropColumn(${literal(c.name)})` }
    case 'renameColumn':
      return { helper: 'renameColumn', code: `renameColumn(${literal(c.from)}, ${literal(c.to)})` }
    case 'modifyColumn':
      return { helper: 'modifyColumn', code: `modifyColumn(${literal(c.name)}, ${literal(c.set)})` }
    case 'addForeignKey':
      return { helper: 'addForeignKey', code: `addForeignKey(${literal(c.foreignKey)})` }
    case 'dropForeignKey':
      return { helper: 'dropForeignKey', code: `dropForeignKey(${literal(c.columns)})` }
    case 'setPrimaryKey':
      return { helper: 'setPrimaryKey', code: `setPrimaryKey(${literal(c.columns)})` }
  }
}

function operation(op: Operation, helpers: Set<string>): string {
  helpers.add(op.op)
  switch (op.op) {
    case 'createTable':
      return `createTable(${literal(op.table)}, [\n${op.columns.map((c) => `      ${literal(c)},`).join('\n')}\n    ]${op.foreignKeys?.length ? `, {\n      foreignKeys: [\n${op.foreignKeys.map((fk) => `        ${literal(fk)},`).join('\n')}\n      ],\n    }` : ''})`
    case 'dropTable':
      return `dropTable(${literal(op.table)})`
    case 'alterTable': {
      const lines = op.changes.map((c) => {
        const { helper, code } = change(c)
        helpers.add(helper)
        return `      ${code},`
      })
      return `alterTable(${literal(op.table)}, [\n${lines.join('\n')}\n    ])`
    }
    case 'createIndex': {
      const opts = {
        ...(op.unique ? { unique: true } : {}),
        name: op.name,
        ...(op.where !== undefined ? { where: op.where } : {}),
        ...(op.concurrently ? { concurrently: true } : {}),
      }
      return `createIndex(${literal(op.table)}, ${literal(op.columns)}, ${literal(opts)})`
    }
    case 'dropIndex':
      return `dropIndex(${literal(op.table)}, ${literal(op.name)}${op.concurrently ? ', { concurrently: true }' : ''})`
    case 'addCheck':
      return `addCheck(${literal(op.table)}, ${literal(op.name)}, ${literal(op.check)}${op.notValid ? ', { notValid: true }' : ''})`
    case 'validateCheck':
      return `validateCheck(${literal(op.table)}, ${literal(op.name)})`
    case 'dropCheck':
      return `dropCheck(${literal(op.table)}, ${literal(op.name)})`
    case 'execute':
      // The generator writes only operations it planned, never one with deferred SQL.
      if (typeof op.sql !== 'string') throw new Error(`execute (${op.sql.about}): deferred SQL cannot be written out`)
      return `execute(${literal(op.sql)})`
  }
}

function body(name: string, ops: readonly Operation[], helpers: Set<string>): string {
  if (ops.length === 0) return `export function ${name}() {\n  return []\n}\n`
  return `export function ${name}() {\n  return [\n${ops.map((op) => `    ${operation(op, helpers)},`).join('\n')}\n  ]\n}\n`
}

/** What a migration file exports besides `up` and `down`. */
export interface MigrationExports {
  /** Written as `export const safetyAssured = [...]` when not empty. */
  readonly safetyAssured?: readonly UnsafeCheck[]
  /** Written as `export const transaction = false` when false. */
  readonly transaction?: boolean
}

function exportsCode(exports: MigrationExports): string[] {
  const lines: string[] = []
  if (exports.safetyAssured?.length) {
    lines.push(
      '// Acknowledged unsafe operations (docs: database/migrations-safety): `vela migrate` applies them.',
      `export const safetyAssured = ${literal(exports.safetyAssured)}`,
      '',
    )
  }
  if (exports.transaction === false) {
    lines.push('// CREATE INDEX CONCURRENTLY cannot run inside a transaction.', 'export const transaction = false', '')
  }
  return lines
}

/** The whole file. `importFrom` is the module exporting the helpers (`vela/dbl` in apps). */
export function renderMigration(
  up: readonly Operation[],
  down: readonly Operation[],
  importFrom: string,
  exports: MigrationExports = {},
): string {
  const helpers = new Set<string>()
  const upCode = body('up', up, helpers)
  const downCode = body('down', down, helpers)
  const names = [...helpers].sort()
  return (
    [
      '// Generated by vela from the schemas. Review it before it is applied; edits are kept.',
      `import { ${names.join(', ')} } from ${literal(importFrom)}`,
      '',
      ...exportsCode(exports),
      upCode,
      downCode,
    ]
      .join('\n')
      .trimEnd() + '\n'
  )
}
