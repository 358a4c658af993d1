/**
 * A file as a response body that holds no descriptor until it is sent: the file is opened when
 * the body is first read (or, on node, just before the response's head is written: send-body.ts),
 * read in 64 KiB chunks only as the reader asks for them, and closed when the last byte is read,
 * when reading fails, or when the body is cancelled (the client went away, HEAD). A body that is
 * never sent (replaced by a post plugin, dropped after a deadline's 503 or for a client that left)
 * never opens the file.
 *
 * A process out of descriptors (`EMFILE`, `ENFILE`) is a temporary condition, not a bug: the
 * error is a `FileUnavailableError` (code `VELA_ERR_FILE_UNAVAILABLE`, status 503), which the
 * pipeline and the node exchange answer as a logged 503 with `Retry-After`.
 */
import { open } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { openableBody } from '../exchange/send-body.ts'

const CHUNK = 64 * 1024

/** The process could not open a file for want of descriptors; the request may succeed later. */
export class FileUnavailableError extends Error {
  override readonly name = 'FileUnavailableError'
  readonly code = 'VELA_ERR_FILE_UNAVAILABLE'
  /** The HTTP status a request failing on this gets. */
  readonly status = 503
  constructor(path: string, cause: NodeJS.ErrnoException) {
    super(
      `cannot open ${path}: the process has too many open files (${cause.code}); raise the descriptor limit (ulimit -n) or look for a leak`,
      { cause },
    )
  }
}

/** `err` unchanged, or a `FileUnavailableError` when it says the process is out of descriptors. */
export function fileError(err: unknown, path: string): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code
  return code === 'EMFILE' || code === 'ENFILE' ? new FileUnavailableError(path, err as NodeJS.ErrnoException) : err
}

/** Bytes `start` to `end` (inclusive) of the file at `path`, opened as described above. */
export function fileBody(path: string, start: number, end: number): ReadableStream<Uint8Array> {
  let opening: Promise<FileHandle> | undefined
  let closed = false
  let position = start
  const acquire = () =>
    (opening ??= open(path, 'r').catch((err: unknown) => {
      closed = true
      throw fileError(err, path)
    }))
  const release = () => {
    if (closed) return
    closed = true
    opening?.then((handle) => handle.close()).catch(() => {})
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const handle = await acquire()
          if (closed) return
          const want = Math.min(CHUNK, end + 1 - position)
          const chunk = Buffer.allocUnsafe(want)
          const { bytesRead } = await handle.read(chunk, 0, want, position)
          if (closed) return
          if (bytesRead === 0) throw new Error(`${path} ended at byte ${position} while being sent (the file shrank)`)
          position += bytesRead
          controller.enqueue(bytesRead === want ? chunk : chunk.subarray(0, bytesRead))
          if (position > end) {
            release()
            controller.close()
          }
        } catch (err) {
          release()
          controller.error(err)
        }
      },
      cancel: release,
    },
    // Nothing is read before a reader asks: no descriptor, no bytes ahead of the client.
    { highWaterMark: 0 },
  )
  return openableBody(stream, () => acquire().then(() => undefined))
}
