// shutdown() with a collector that never answers (the telemetry guide's `stop() { await telemetry?.shutdown() }`
// must not hold a dev server's swap or a deploy's shutdown): it returns within shutdownTimeoutMs,
// with one warning, having tried the export.
import { createServer } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, expect, it, vi } from 'vitest'
import { setupTelemetry } from './setup.ts'

// Accepts connections and reads them, never answers.
const sockets: Socket[] = []
const silent = createServer((socket) => void sockets.push(socket.on('error', () => {})))
afterAll(async () => {
  for (const s of sockets) s.destroy()
  await new Promise((r) => silent.close(r))
})

it('shutdown() gives up the final export after shutdownTimeoutMs and warns once', async () => {
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))
  const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
  const telemetry = await setupTelemetry({ endpoint, shutdownTimeoutMs: 300 })
  telemetry.tracerProvider.getTracer('test').startSpan('pending').end()
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    const began = Date.now()
    await telemetry.shutdown()
    const took = Date.now() - began
    expect(took).toBeGreaterThanOrEqual(290)
    expect(took).toBeLessThan(2000)
    // The export was attempted: the collector got a connection, and no answer.
    expect(sockets.length).toBeGreaterThan(0)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toMatch(/did not finish within 300 ms.*dropped/)
  } finally {
    warn.mockRestore()
  }
  // Shut down: a new set-up is possible at once (a swap's new start hook).
  const again = await setupTelemetry({ spanProcessors: [] })
  await again.shutdown()
})
