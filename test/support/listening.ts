/**
 * The port a server started with `PORT=0` got, read from its start line: Vela's `listening on
 * http://[::]:<port>` (the built server and `vela serve`) or Vite's `Local: http://…:<port>/`.
 */
const LISTENING = /(?:listening on|Local:)\s+https?:\/\/\S*?:(\d+)/

/**
 * The port in the first start line of `output`, once it has been printed.
 *
 * @example
 * const child = spawn(process.execPath, ['dist/server/index.mjs'], { env: { ...process.env, PORT: '0' } })
 * await until('the server listens', () => listeningPort(output) !== undefined)
 */
export function listeningPort(output: string): number | undefined {
  const port = LISTENING.exec(output)?.[1]
  return port === undefined ? undefined : Number(port)
}
