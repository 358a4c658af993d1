// The OpenAPI files under the dev server: written once the app has loaded when it has
// priv/schemas/, and rewritten after a swap that changes the routes.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startDevServer } from './dev-server.ts'
import vela from '../index.ts'
import { copyFixture } from '../test/built-app.ts'

const root = copyFixture('notes')
const data = mkdtempSync(join(tmpdir(), 'vela-notes-openapi-'))
afterAll(() => [root, data].forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const document = join(root, 'priv/assets/openapi.json')
const paths = () => Object.keys((JSON.parse(readFileSync(document, 'utf8')) as { paths: object }).paths)
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

it('writes priv/assets/openapi.json and the explorer at start, and again when a swap changes the routes', async () => {
  process.env.NOTES_DATA = data
  const server = await startDevServer({ root, port: 0, plugins: [vela()] })
  try {
    await until(
      () => existsSync(document) && existsSync(join(root, 'priv/assets/swagger-ui-bundle.js')),
      'the OpenAPI files',
    )
    expect(paths()).toEqual(['/api/notes', '/api/env'])
    expect(readFileSync(join(root, 'priv/assets/swagger.html'), 'utf8')).toContain('./openapi.json')
    const routes = join(root, 'src/routes/api.ts')
    writeFileSync(
      routes,
      readFileSync(routes, 'utf8').replace(
        "['GET /notes', notes.index],",
        "['GET /notes', notes.index],\n    ['GET /notes/:id', notes.index],",
      ),
    )
    await until(() => paths().includes('/api/notes/{id}'), 'the new route in openapi.json')
  } finally {
    await server.close()
    delete process.env.NOTES_DATA
  }
}, 30_000)
