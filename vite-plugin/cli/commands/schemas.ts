/**
 * `vela schemas`: writes `priv/schemas/<name>.json` and `<name>_patch.json` from the app's
 * `src/schemas/*.ts` (json-schemas-write.ts), one `Generated <path>` line per file written and one
 * `Kept <path> (hand-written)` line per file left alone because it does not carry the generator's mark.
 */
import { markAppLoadFailure } from '../../load-failure.ts'
import { defineCommand } from './args.ts'

export const schemasCommand = defineCommand({
  name: 'schemas',
  summary: 'write priv/schemas/<name>.json and <name>_patch.json from src/schemas',
  description: `Writes a JSON Schema (draft-07) for every table schema src/schemas exports: <name>.json for the
records (generated fields read-only) and <name>_patch.json for PATCH bodies (nothing required).
A file without the generator's "$comment" mark is hand-written and never overwritten.`,
  options: {},
  example: 'vela schemas',
  async run({ root, display }) {
    // Imported here: the CLI loads Vite only for the command that needs it.
    const { writeJsonSchemas } = await import('../../json-schemas-write.ts')
    const { withAppRunner } = await import('./load.ts')
    const result = await withAppRunner(root, {}, (load) => writeJsonSchemas(root, load)).catch((err) => {
      throw markAppLoadFailure(err)
    })
    for (const file of result.written) console.log(`Generated ${display(file)}`)
    for (const file of result.kept) console.log(`Kept ${display(file)} (hand-written)`)
    if (result.written.length === 0 && result.kept.length === 0)
      console.log(result.unchanged.length ? 'Schemas up to date' : 'No schemas in src/schemas')
    return 0
  },
})
