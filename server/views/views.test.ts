// Views (a handler returning `view(vars)` or `view(name, vars, options)`): Liquid templates rendered by the real
// renderer over HTTP and in-process: default and named views, escaping, layouts, partials, the
// missing-view 500, the CSRF token, and the dev/prod template cache.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { view } from '../replies.ts'
import type { Handler, RouteGroup } from '../contracts/routes.ts'

function viewsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vela-views-'))
  const files: Record<string, string> = {
    'notes.liquid': '<h1>{{ title }}</h1>',
    'notes_edit.liquid': "{% layout 'layout' %}{% block content %}<p>edit {{ note.title }}</p>{% endblock %}",
    'layout.liquid':
      '<html><title>{{ title | default: "Vela" }}</title><body>{% block content %}{% endblock %}{% render "footer", year: 2024 %}</body></html>',
    'footer.liquid': '<footer>© {{ year }}</footer>',
    'with_include.liquid': "{% include 'footer', year: 1999 %}|{{ csrf_token }}",
    'raw.liquid': '{{ html | raw }}',
    'counter.liquid': 'version 1',
  }
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

const notes_controller = {
  index: (req) => view({ title: String(req.query.title ?? 'All notes') }),
  edit: () =>
    view('notes_edit', { title: 'Edit', note: { title: '<b>x</b>' } }, { status: 201, headers: { 'x-view': 'edit' } }),
  include: (req) => {
    req.csrfToken = 'tok-123'
    return view('with_include')
  },
  includeNoToken: () => view('with_include'),
  raw: () => view('raw', { html: '<em>trusted</em>' }),
  counter: () => view('counter'),
  missing: () => view('nope'),
  escape: () => view('../notes'),
} satisfies Record<string, Handler>
const ghost_controller = { index: () => view({}) } satisfies Record<string, Handler>

const group: RouteGroup = {
  prefix: '',
  security: false,
  routes: [
    ['GET /notes', notes_controller.index],
    ['GET /notes/edit', notes_controller.edit],
    ['GET /include', notes_controller.include],
    ['GET /include-no-token', notes_controller.includeNoToken],
    ['GET /raw', notes_controller.raw],
    ['GET /counter', notes_controller.counter],
    ['GET /missing', notes_controller.missing],
    ['GET /escape', notes_controller.escape],
    ['GET /ghost', ghost_controller.index],
  ],
}

function app(environment: string, dir: string, useStacktrace = true) {
  return {
    bootstrapApplication: 'views',
    environment,
    useStacktrace,
    views: { dir },
    routes: { views: group },
    controllers: {
      'src/controllers/notes_controller.ts': notes_controller,
      'src/controllers/ghost_controller.ts': ghost_controller,
    },
  }
}

const devDir = viewsDir()
describeModes('views (dev)', app('dev', devDir), (t) => {
  it("view(vars) renders the controller's default view, HTML-escaped", async () => {
    const res = await t.request(`/notes?title=${encodeURIComponent('<script>alert("x")</script>')}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await res.text()).toBe('<h1>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</h1>')
  })
  it('view(vars, { view, status, headers }) renders the named view inside its layout, with a rendered partial', async () => {
    const res = await t.request('/notes/edit')
    expect(res.status).toBe(201)
    expect(res.headers.get('x-view')).toBe('edit')
    expect(await res.text()).toBe(
      '<html><title>Edit</title><body><p>edit &lt;b&gt;x&lt;/b&gt;</p><footer>© 2024</footer></body></html>',
    )
  })
  it('include works and csrf_token comes from req.csrfToken', async () => {
    expect(await (await t.request('/include')).text()).toBe('<footer>© 1999</footer>|tok-123')
  })
  it('csrf_token is an empty string without a CSRF plugin', async () => {
    expect(await (await t.request('/include-no-token')).text()).toBe('<footer>© 1999</footer>|')
  })
  it('| raw opts out of escaping', async () => {
    expect(await (await t.request('/raw')).text()).toBe('<em>trusted</em>')
  })
  it('a missing view is a 500 whose message names the file it looked for', async () => {
    t.expectLogged(/^500 on GET \/missing .*view "nope" not found/)
    t.expectLogged(/^500 on GET \/ghost .*view "ghost" not found/)
    const res = await t.request('/missing')
    expect(res.status).toBe(500)
    const body = (await res.json()) as { error: string }
    expect(body.error).toBe(
      `view "nope" not found: looked for ${join(devDir, 'nope.liquid')} (rendering for notes_controller)`,
    )
    const ghost = (await (await t.request('/ghost')).json()) as { error: string }
    expect(ghost.error).toContain(join(devDir, 'ghost.liquid'))
  })
  it('a view name cannot leave the views directory', async () => {
    t.expectLogged(/^500 on GET \/escape .*view name "\.\.\/notes" .* is not a plain template name/)
    const res = await t.request('/escape')
    expect(res.status).toBe(500)
    expect(((await res.json()) as { error: string }).error).toContain('is not a plain template name')
  })
  it('development re-reads a template after it changes', async () => {
    writeFileSync(join(devDir, 'counter.liquid'), 'version 1')
    expect(await (await t.request('/counter')).text()).toBe('version 1')
    writeFileSync(join(devDir, 'counter.liquid'), 'version 2 {{ 1 | plus: 1 }}')
    expect(await (await t.request('/counter')).text()).toBe('version 2 2')
  })
})

// describeModes builds one app per mode, in-process first: give each its own directory.
const prodDirs = { 'in-process': viewsDir(), http: viewsDir() }
const pending = Object.values(prodDirs)
describeModes(
  'views (prod)',
  () => app('prod', pending.shift()!, false),
  (t) => {
    const prodDir = prodDirs[t.mode]
    it('production parses once and keeps the template, partials included', async () => {
      writeFileSync(join(prodDir, 'counter.liquid'), `cached ${t.mode}`)
      expect(await (await t.request('/counter')).text()).toBe(`cached ${t.mode}`)
      writeFileSync(join(prodDir, 'counter.liquid'), 'changed')
      expect(await (await t.request('/counter')).text()).toBe(`cached ${t.mode}`)
      expect(await (await t.request('/notes/edit')).text()).toContain('<footer>© 2024</footer>')
      writeFileSync(join(prodDir, 'footer.liquid'), 'changed footer')
      expect(await (await t.request('/notes/edit')).text()).toContain('<footer>© 2024</footer>')
    })
    it('the missing-view message is logged even without useStacktrace', async () => {
      const log = vi.fn()
      const { createApp } = await import('../app/create-app.ts')
      const { inject } = await import('../testing/index.ts')
      const a = createApp(app('prod', prodDir, false), { env: {}, log })
      const res = await inject(a, '/missing')
      expect(res.status).toBe(500)
      expect(await res.json()).toEqual({ error: 'Internal Server Error' })
      expect(String((log.mock.calls[0]![1] as Error).message)).toContain(join(prodDir, 'nope.liquid'))
    })
  },
)

it('views.dir (default src/views) resolves against the app root; an absolute dir is kept', async () => {
  const { mkdirSync } = await import('node:fs')
  const { createApp } = await import('../app/create-app.ts')
  const { inject } = await import('../testing/index.ts')
  const root = mkdtempSync(join(tmpdir(), 'vela-views-root-'))
  mkdirSync(join(root, 'src/views'), { recursive: true })
  mkdirSync(join(root, 'templates'))
  writeFileSync(join(root, 'src/views/notes.liquid'), 'default dir: {{ title }}')
  writeFileSync(join(root, 'templates/notes.liquid'), 'custom dir: {{ title }}')
  const config = (views?: { dir: string }) => ({ ...app('prod', devDir), views })
  expect(await (await inject(createApp(config(), { env: {}, root }), '/notes')).text()).toBe('default dir: All notes')
  expect(await (await inject(createApp(config({ dir: 'templates' }), { env: {}, root }), '/notes')).text()).toBe(
    'custom dir: All notes',
  )
  // Absolute: the root does not matter.
  expect(await (await inject(createApp(config({ dir: devDir }), { env: {}, root }), '/notes')).text()).toBe(
    '<h1>All notes</h1>',
  )
})
