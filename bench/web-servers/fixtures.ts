/** The same data, templates and assets for both web-bench servers. */
import { fileURLToPath } from 'node:url'

export const viewsDir = fileURLToPath(new URL('./views', import.meta.url))
export const assetsDir = fileURLToPath(new URL('./assets', import.meta.url))

// 20 notes, one carrying markup so escaping has work to do.
export const notes = Array.from({ length: 20 }, (_, i) => ({
  id: i + 1,
  title: i === 3 ? '<script>alert("x")</script>' : `Note ${i + 1}`,
  author: `author${i % 4}`,
  body: `Body of note ${i + 1} & some text that is long enough to look like a real note.`,
}))
