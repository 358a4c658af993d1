/**
 * Files the plugin generates are replaced whole: written to a temporary file in the same folder,
 * then renamed over the target, so a reader (an editor, a watcher) never sees half a file and no
 * temporary file is left behind, even when the write fails. Only a process killed between the two
 * steps can leave one (`<file>.<pid>.<time>.tmp`); `vite build` refuses to copy such a leftover
 * (build-files.ts).
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Writes `text` to `path` (creating its folder) through a temporary file renamed over it. */
export async function writeAtomically(path: string, text: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`
  try {
    await writeFile(temp, text)
    await rename(temp, path)
  } catch (err) {
    await rm(temp, { force: true })
    throw err
  }
}

/** Writes `text` to `path` unless the file already holds exactly that; whether it wrote. */
export async function writeIfChanged(path: string, text: string): Promise<boolean> {
  const current = await readFile(path, 'utf8').catch(() => undefined)
  if (current === text) return false
  await writeAtomically(path, text)
  return true
}
