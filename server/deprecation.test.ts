// Deprecation warnings as a process prints them: once per code however often the old form runs,
// named by their code on stderr, and silenced by Node's own flags for one code or for all.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const replies = new URL('./replies.ts', import.meta.url).href
// Each old form used twice, and a new form that must not warn.
const script = `
import { json, redirect, status, view } from ${JSON.stringify(replies)}
for (let i = 0; i < 2; i++) {
  json(201, {}, { id: i })
  status(422, {}, { errors: {} })
  redirect('/new', 301)
  view({}, { view: 'notes_edit' })
  json({ id: i }, { status: 201 })
}
`

/** The stderr of a node process running the script with `flags`. */
async function stderrOf(flags: string[] = []): Promise<string> {
  const { stderr } = await promisify(execFile)(
    process.execPath,
    [...flags, '--import', 'tsx', '--input-type=module', '--eval', script],
    { env: { ...process.env, NODE_OPTIONS: '' } },
  )
  return stderr
}

const velaWarnings = (stderr: string) => stderr.split('\n').filter((line) => line.includes('VELA_DEP_'))

describe('deprecation warnings', () => {
  it('prints each code once, as a DeprecationWarning naming the new form', async () => {
    expect(velaWarnings(await stderrOf())).toEqual([
      expect.stringMatching(
        /\[VELA_DEP_JSON_POSITIONAL\] DeprecationWarning: json\(status, headers, body\) is deprecated: write json\(body, \{ status, headers \}\)/,
      ),
      expect.stringMatching(
        /\[VELA_DEP_STATUS_POSITIONAL\] DeprecationWarning: status\(code, headers, body\) is deprecated: write status\(code, body, \{ headers \}\)/,
      ),
      expect.stringMatching(
        /\[VELA_DEP_REDIRECT_STATUS\] DeprecationWarning: redirect\(to, code\) is deprecated: write redirect\(to, \{ status: code \}\)/,
      ),
      expect.stringMatching(
        /\[VELA_DEP_VIEW_OPTION\] DeprecationWarning: view\(vars, \{ view: name \}\) is deprecated: write view\(name, vars, \{ status, headers \}\)/,
      ),
    ])
  })

  it('--disable-warning=<code> silences that one; --no-deprecation silences them all', async () => {
    const codes = (stderr: string) => velaWarnings(stderr).map((line) => /\[(VELA_DEP_\w+)\]/.exec(line)?.[1])
    expect(codes(await stderrOf(['--disable-warning=VELA_DEP_JSON_POSITIONAL']))).toEqual([
      'VELA_DEP_STATUS_POSITIONAL',
      'VELA_DEP_REDIRECT_STATUS',
      'VELA_DEP_VIEW_OPTION',
    ])
    expect(codes(await stderrOf(['--no-deprecation']))).toEqual([])
  })
})
