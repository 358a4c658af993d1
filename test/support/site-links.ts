/**
 * The links of a built static site that lead nowhere: every `href` of every HTML page that points
 * inside the site must name a file of it (`/guide/x` may stand for `/guide/x.html`, a folder for its
 * index.html), and its `#anchor`, if any, an `id` on that page. Links to other sites and `mailto:`
 * are not followed.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative } from 'node:path'

/** Every file under `dir`, as paths relative to it with `/`. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
}

/** The ids an HTML page declares (anchor targets). */
const idsOf = (html: string): Set<string> => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!))

/** `page: href (why)` for each link of the site under `root` that leads to no file or no anchor. */
export function brokenLinks(root: string): string[] {
  const all = files(root)
  const present = new Set(all)
  const ids = new Map<string, Set<string>>()
  const idsFor = (file: string) => {
    if (!ids.has(file)) ids.set(file, idsOf(readFileSync(join(root, file), 'utf8')))
    return ids.get(file)!
  }
  const broken: string[] = []
  for (const page of all.filter((f) => f.endsWith('.html') && f !== '404.html')) {
    const html = readFileSync(join(root, page), 'utf8')
    for (const [, href] of html.matchAll(/\shref="([^"]+)"/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href!) || href!.startsWith('//')) continue // another site, mailto:
      const [pathPart, anchor] = href!.split('#') as [string, string | undefined]
      let target =
        pathPart === ''
          ? page
          : pathPart.startsWith('/')
            ? pathPart.slice(1)
            : posix.join(posix.dirname(page), pathPart)
      target = decodeURIComponent(target.split('?')[0]!)
      if (target === '' || target.endsWith('/')) target += 'index.html'
      if (!present.has(target) && present.has(`${target}.html`)) target += '.html'
      if (!present.has(target)) {
        broken.push(`${page}: ${href} (no ${target})`)
        continue
      }
      if (anchor && target.endsWith('.html') && !idsFor(target).has(decodeURIComponent(anchor)))
        broken.push(`${page}: ${href} (no #${anchor} in ${target})`)
    }
  }
  return broken
}
