/**
 * `vela gen auth` (also `vela gen_auth`, as `gen_resource` is written): writes user accounts into
 * the app, as code the app owns (Phoenix's `mix phx.gen.auth`): the `users` and `users_tokens`
 * schemas, `src/auth/` (tokens, sessions, the `requireUser` / `requireSudo` security, mail, rate
 * limits), controllers, `src/routes/auth.ts`, Liquid pages and mails, and `test/auth/`. The files
 * are the parts of parts.ts, read from `template/<part>/` beside this module (in the package:
 * `dist/vite-plugin/cli/commands/gen-auth/template/`, copied by the build).
 *
 * - Nothing is overwritten: when any target exists, nothing is written and the command fails
 *   (exit status 1) naming them. Each file is created with `wx`, so one made meanwhile is not
 *   replaced either.
 * - The generated code imports the app's `src/repo.ts` (`export const repo`, as `vela new`
 *   writes it); an app without it is refused before anything is written.
 * - **Choice:** the migration is not written by this command: the schemas are, and `vela
 *   migrations generate` makes the migration from them, as for any schema, so it is named and
 *   ordered with the app's other migrations and reviewed the same way. The printed next steps say so.
 * - The routes need no pasting: `src/routes/auth.ts` is a route file, found by vela/vite.
 */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineCommand } from '../args.ts'
import { applyDependencies, planDependencies } from './dependencies.ts'
import { AUTH_PARTS, type AuthPart, partsFor } from './parts.ts'

const TEMPLATE_DIR = fileURLToPath(new URL('./template/', import.meta.url))

/** One file to write: where in the app, and its text. */
export interface AuthFile {
  /** Relative to the app root. */
  readonly path: string
  readonly text: string
}

/**
 * The files of `parts`, read from their folders under `templates`. A later part's file replaces an
 * earlier part's file of the same path (how a part changes what core writes), in the place it had.
 */
export async function authFiles(
  parts: readonly AuthPart[] = AUTH_PARTS,
  templates = TEMPLATE_DIR,
): Promise<AuthFile[]> {
  const byPath = new Map<string, AuthFile>()
  for (const part of parts) {
    for (const path of part.files) {
      byPath.set(path, { path, text: await readFile(join(templates, part.name, path), 'utf8') })
    }
  }
  return [...byPath.values()]
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  )

/**
 * Writes `files` under `root`, or nothing when any of them exists or the app has no
 * `src/repo.ts`; returns their absolute paths. `display` names files in errors.
 */
export async function writeAuth(
  root: string,
  files: readonly AuthFile[],
  display: (file: string) => string,
): Promise<string[]> {
  if (!(await exists(resolve(root, 'src/repo.ts'))))
    throw new Error(
      `${display(resolve(root, 'src/repo.ts'))} not found: the generated code imports \`repo\` from it (\`export const repo = defineRepo(…)\`, as \`vela new\` writes it); nothing was written`,
    )
  const taken: string[] = []
  for (const f of files) if (await exists(resolve(root, f.path))) taken.push(display(resolve(root, f.path)))
  if (taken.length > 0)
    throw new Error(
      `${taken.length === 1 ? `${taken[0]} already exists` : `these files already exist: ${taken.join(', ')}`}; nothing was written (remove or rename ${taken.length === 1 ? 'it' : 'them'} to generate again)`,
    )
  const written: string[] = []
  for (const f of files) {
    const file = resolve(root, f.path)
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, f.text, { flag: 'wx' }) // wx: never replace a file created meanwhile
    written.push(file)
  }
  return written
}

/** What to do after the files are written. */
export const NEXT_STEPS = `Next:
  npx vela migrations generate   the users and users_tokens migration, from src/schemas/
  npx vela migrate               apply it (the app's start hook also migrates)
  npx vitest run test/auth       the generated tests

The pages are under /users (src/routes/auth.ts, found by vela/vite: nothing to paste). Start at
/users/register. To require a login on your own route groups:

  import { browser } from '../auth/pipelines.ts'
  import { requireUser } from '../auth/security.ts'
  { prefix: '/notes', security: requireUser, plugins: browser, routes: [...] }

In production set APP_URL (the site's address, for the links in mails), SMTP_URL and MAIL_FROM.`

export const genAuthCommand = defineCommand({
  name: 'gen auth',
  aliases: ['gen_auth'],
  summary: 'user accounts written into the app: login, registration, mailed links, sudo mode',
  description: `Writes user accounts into the app, as code it owns: the users and users_tokens schemas,
src/auth/ (sessions kept in users_tokens, the requireUser and requireSudo security for route groups,
mail, rate limits), controllers, src/routes/auth.ts (pages under /users), Liquid pages and mails,
and tests in test/auth/. Flows: registration with email confirmation, login and logout, log out
everywhere, password reset and login links by mail, sudo mode (the password again before a
sensitive change), email change confirmed at the new address. Nothing is overwritten: if any file
exists, nothing is written. Then run vela migrations generate and vela migrate.`,
  options: {
    passkeys: {
      type: 'boolean',
      description:
        'also passkeys (WebAuthn): sign in with one, add and delete them in the settings; adds @simplewebauthn/server to package.json',
    },
  },
  example: 'vela gen auth --passkeys\nnpm install\nvela migrations generate\nvela migrate',
  async run({ root, values, display }) {
    const parts = partsFor(values)
    const wanted = Object.assign({}, ...parts.map((p) => p.dependencies ?? {})) as Record<string, string>
    // Read before anything is written: an app without a usable package.json gets nothing.
    const edit = Object.keys(wanted).length > 0 ? await planDependencies(root, wanted, display) : undefined
    for (const file of await writeAuth(root, await authFiles(parts), display)) console.log(`Generated ${display(file)}`)
    if (edit) await applyDependencies(edit)
    if (edit?.added.length) console.log(`Added ${edit.added.join(', ')} to ${display(edit.file)}: run npm install`)
    const extra = parts.flatMap((p) => p.next ?? [])
    console.log(`\n${NEXT_STEPS}${extra.length > 0 ? `\n\n${extra.join('\n')}` : ''}`)
    return 0
  },
})
