/**
 * Where mail goes. A stand-in that sends nothing: a real app calls its mail service here, passing
 * `signal` on, so a run past its timeout stops waiting for it.
 */
export interface Mail {
  readonly to: string
  readonly subject: string
}

export async function deliver(_mail: Mail, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted()
}
