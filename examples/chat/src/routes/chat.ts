import { defineRoutes, requestPlugin, status, staticDir } from 'vela'
import { chatter } from '../chat/chatter.ts'
import * as rooms from '../controllers/rooms_controller.ts'

export default defineRoutes([
  {
    prefix: '',
    security: false,
    plugins: [],
    routes: [
      ['GET /', rooms.page],
      ['GET /heartbeat', () => status(200)],
      // The page's script and stylesheet: files, so the page passes the Content-Security-Policy.
      ['/static/[...]', staticDir('priv/static')],
    ],
  },
  {
    // The sockets. `chatter` checks the upgrade request (room and name) before the connection
    // opens; a browser on another site is refused (403) before that, by its Origin header.
    prefix: '/ws',
    security: chatter,
    plugins: [],
    routes: [['/rooms/:room', rooms.socket, { protocol: 'ws' }]],
  },
  {
    // The same rooms over HTTP. `validate` checks the room name and the body first, and the replies
    // are messages (`schema`): priv/schemas/*.json, which the OpenAPI document uses too.
    prefix: '/api',
    security: false,
    plugins: [requestPlugin({ json: true })],
    routes: [
      ['GET /rooms/:room/messages', rooms.index, { schema: 'message', validate: { params: 'room_ref' } }],
      [
        'POST /rooms/:room/messages',
        rooms.create,
        { schema: 'message', validate: { params: 'room_ref', body: 'message_new' } },
      ],
    ],
  },
])
