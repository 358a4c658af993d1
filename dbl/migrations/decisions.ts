/**
 * The decisions the diff cannot make on its own (a possible rename, dropping data) and the error
 * that asks for them, listing every ambiguous table with the field option or CLI flag to give.
 */
import type { UnsafeCheck } from './unsafe-check.ts'

/** What the migration generator is told to do where the schemas alone are ambiguous: renames, and drops of columns and tables with their data. */
export interface Decisions {
  /** `{ 'table.new_name': 'old_name' }`: the column was renamed (also given by `renamedFrom` on the field). */
  readonly renames?: Readonly<Record<string, string>>
  /** `['table.column']`: this column is dropped with its data, even though another one appears. */
  readonly dropColumns?: readonly string[]
  /** Tables no schema uses any more that may be dropped with their data. */
  readonly dropTables?: readonly string[]
  /**
   * Safety checks acknowledged for this migration (`['drop-column']`, CLI `--allow-unsafe`): the
   * generator writes the operation and lists the check in the file's `safetyAssured`.
   */
  readonly allowUnsafe?: readonly UnsafeCheck[]
}

export interface Ambiguity {
  readonly table: string
  readonly disappearing: readonly string[]
  readonly appearing: readonly string[]
}

/** The field stored in a column, for messages (a field's `column` may differ from its name). */
export type FieldOfColumn = (table: string, column: string) => string

/** Thrown when the diff needs a decision it was not given; nothing is written. */
export class MigrationDecisionError extends Error {
  constructor(
    readonly ambiguities: readonly Ambiguity[],
    fieldOf: FieldOfColumn = (_table, column) => column,
  ) {
    super(decisionMessage(ambiguities, fieldOf))
    this.name = 'MigrationDecisionError'
  }
}

function decisionMessage(list: readonly Ambiguity[], fieldOf: FieldOfColumn): string {
  const lines = [
    'Migration not generated: a column disappears while another appears in the same table, which may be a rename. Decide for each:',
  ]
  for (const { table, disappearing, appearing } of list) {
    const olds = disappearing.map((c) => `"${c}"`).join(', ')
    lines.push(
      `  table "${table}": ${olds} disappear${disappearing.length === 1 ? 's' : ''}; ${appearing.map((c) => `"${c}"`).join(', ')} appear${appearing.length === 1 ? 's' : ''}`,
    )
    for (const neu of appearing) {
      for (const old of disappearing) {
        lines.push(
          `    - "${neu}" is "${old}" renamed (data kept): add renamedFrom: '${old}' to the field "${fieldOf(table, neu)}" of the ${table} schema,` +
            ` or pass decisions { renames: { '${table}.${neu}': '${old}' } } (CLI: --rename ${table}.${neu}=${old})`,
        )
      }
    }
    for (const old of disappearing) {
      lines.push(
        `    - "${old}" is dropped with its data: pass decisions { dropColumns: ['${table}.${old}'] } (CLI: --drop-column ${table}.${old})`,
      )
    }
  }
  return lines.join('\n')
}
