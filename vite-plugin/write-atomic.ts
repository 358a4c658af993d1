/**
 * Writing a generated file so that a reader sees the old file or the new one, never a part: the
 * bytes go to a temporary file beside it (`<file>.<random>.tmp`), which is then renamed over it.
 * The temporary file is removed when anything fails, so a failed write leaves nothing behind; only
 * a process killed between the two steps can, and `vite build` refuses to copy such a leftover
 * (build-files.ts).
 */
import { randomBytes } from 'node:crypto'
import { rename, rm, writeFile } from 'node:fs/promises'

/** Whether `file` is named like the temporary files writeFileAtomic makes. */
export const isTempFile = (file: string): boolean => file.endsWith('.tmp')

/** Replaces `file` with `data` atomically (temp file + rename); the temp file never outlives the call. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await writeFile(temp, data)
    await rename(temp, file)
  } catch (err) {
    await rm(temp, { force: true })
    throw err
  }
}
