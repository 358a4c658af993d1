/**
 * What the primary and the workers do to their own process (signals, exit, output), and the IPC
 * channel a worker talks to its primary on: the process's own by default, replaceable so that
 * server/cluster/*.test.ts run primary.ts and worker.ts in the test process.
 */
import { inspect } from 'node:util'
import type { ToPrimary } from './protocol.ts'

export interface ProcessEffects {
  onSignal(signal: NodeJS.Signals, handler: (signal: NodeJS.Signals) => void): void
  exit(code: number): void
  /** One line of output; `error` ones go to stderr (failures, crashes). */
  print(line: string, error?: boolean): void
}

export const processEffects: ProcessEffects = {
  onSignal: (signal, handler) => void process.on(signal, handler),
  exit: (code) => process.exit(code),
  print: (line, error) => (error ? console.error(line) : console.log(line)),
}

/** A worker's side of the IPC channel. */
export interface PrimaryChannel {
  onMessage(handler: (message: unknown) => void): void
  send(message: ToPrimary): void
}

export const processChannel: PrimaryChannel = {
  onMessage: (handler) => void process.on('message', handler),
  // The callback: a channel closing under a send (the primary gone) is not an uncaught error.
  send: (message) => void process.send?.(message, undefined, undefined, () => {}),
}

/** How an error prints in full (a stack), for failures that are not one-line Vela errors. */
export const printable = (err: unknown): string => inspect(err)
