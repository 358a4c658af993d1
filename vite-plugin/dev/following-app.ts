/**
 * An app that answers through whichever app `current()` returns at each call: what `vela serve`'s
 * listener serves, so that after a restart of Vite's server (a config edit) the listener, which
 * keeps its port, answers with the new server's dev app.
 */
import type { VelaApp } from '../../server/app/create-app.ts'

/** Forwards every member of the app, each time it is used, to `current()`. */
export function followingApp(current: () => VelaApp): VelaApp {
  return {
    get config() {
      return current().config
    },
    get state() {
      return current().state
    },
    get routeTable() {
      return current().routeTable
    },
    get topics() {
      return current().topics
    },
    fetch: (request) => current().fetch(request),
    upgrade: (request) => current().upgrade(request),
    handleNode: (req, res) => current().handleNode(req, res),
    publish: (topic, message) => current().publish(topic, message),
    start: () => current().start(),
    drain: () => current().drain(),
    stop: () => current().stop(),
  }
}
