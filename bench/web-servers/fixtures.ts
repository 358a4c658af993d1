import { join } from 'node:path'
/** The same data, templates and assets for both web-bench servers. */
import { fileURLToPath } from 'node:url'

// The servers run bundled elsewhere (bench/load.ts), so the bench passes this folder's path.
const here = process.env.BENCH_WEB_DIR ?? fileURLToPath(new URL('.', import.meta.url))
export const viewsDir = join(here, 'views')
export const assetsDir = join(here, 'assets')

// 20 notes, one carrying markup so escaping has work to do.
export const notes = Array.from({ length: 20 }, (_, i) => ({
  id: i + 1,
  title: i === 3 ? '<script>alert("x")</script>' : `Note ${i + 1}`,
  author: `author${i % 4}`,
  body: `Body of note ${i + 1} & some text that is long enough to look like a real note.`,
}))
