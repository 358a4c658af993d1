// Old addresses of moved pages (moved.ts) keep working. VitePress has no redirects of its own, so
// the build writes a small page at each old URL that sends the reader on (with the `#anchor` they
// asked for), and a markdown link still naming an old path is pointed at the new page before
// VitePress checks links, so it neither fails the build nor costs the reader a hop.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import type { MarkdownRenderer } from 'vitepress'
import { MOVED } from './moved.ts'

/** The HTML of the page at an old address: a meta refresh, a script that keeps the anchor, a link. */
export function redirectPage(to: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Moved to ${to}</title>
<link rel="canonical" href="${to}">
<meta name="robots" content="noindex">
<meta http-equiv="refresh" content="0; url=${to}">
<script>location.replace(${JSON.stringify(to)} + location.hash)</script>
</head>
<body><p>This page has moved to <a href="${to}">${to}</a>.</p></body>
</html>
`
}

/** Writes `<old>.html` under `outDir` for every moved page (VitePress's `buildEnd`). */
export function writeRedirects(outDir: string, base: string): void {
  for (const [from, to] of Object.entries(MOVED)) {
    const file = join(outDir, `${from}.html`)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, redirectPage(`${base}${to}.html`))
  }
}

const OTHER_SITE = /^[a-z][a-z0-9+.-]*:|^\/\//i

/**
 * The link `href` on the page `page` (a path under docs/, `guide/x.md`) points at, when that is a
 * moved page: the same link to where it went, anchor kept. Undefined for every other link.
 */
export function movedLink(page: string, href: string): string | undefined {
  if (OTHER_SITE.test(href) || href.startsWith('#')) return undefined
  const cut = href.search(/[?#]/)
  const path = cut === -1 ? href : href.slice(0, cut)
  const rest = cut === -1 ? '' : href.slice(cut)
  const ext = /\.(md|html)$/.exec(path)?.[0] ?? ''
  const bare = path.slice(0, path.length - ext.length)
  if (bare === '' || bare.endsWith('/')) return undefined
  const absolute = bare.startsWith('/')
  const target = MOVED[absolute ? bare.slice(1) : posix.join(posix.dirname(page), bare)]
  if (target === undefined) return undefined
  return `${absolute ? `/${target}` : posix.relative(posix.dirname(page), target)}${ext}${rest}`
}

/** A markdown-it plugin: links to moved pages are rewritten (movedLink), each once noted on stderr. */
export function pointMovedLinks(md: MarkdownRenderer): void {
  const noted = new Set<string>()
  md.core.ruler.push('vela_moved_links', (state) => {
    const page = (state.env as { relativePath?: string }).relativePath ?? ''
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        const href = token.type === 'link_open' ? token.attrGet('href') : null
        const moved = href === null ? undefined : movedLink(page, href)
        if (moved === undefined) continue
        token.attrSet('href', moved)
        const note = `[docs] ${page} links to ${href}, a page that moved: pointed at ${moved} (docs/.vitepress/moved.ts)`
        if (!noted.has(note)) console.warn(note)
        noted.add(note)
      }
    }
  })
}
