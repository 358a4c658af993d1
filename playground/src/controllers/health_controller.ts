import { json, redirect, status } from 'vela'
import type { VelaRequest } from 'vela'

/** GET /heartbeat: 200, no body (load balancers probe it). */
export const heartbeat = () => status(200)

/** GET /: the notes (which send an anonymous visitor on to the login form). */
export const home = () => redirect('/notes')

/**
 * GET /api/info: what is answering and where the request was routed; `instance` is INSTANCE_ID
 * when set (several instances behind a load balancer: which one answered). Nothing about the
 * runtime (no Node version, platform or package versions): the route is open to anyone, and such
 * details only tell an attacker which known flaws to try.
 */
export const info = (req: VelaRequest) =>
  json({
    app: 'playground',
    instance: process.env.INSTANCE_ID || undefined,
    controller: req.route.controller,
    action: req.route.action,
  })
