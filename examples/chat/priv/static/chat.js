// The chat page's script: joins a room over a WebSocket, shows what arrives, sends what is typed.
// Every frame is JSON: the server sends { type: 'history' | 'message' | 'joined' | 'left' | 'error' },
// the page sends { body }.
const log = document.getElementById('log')
const join = document.getElementById('join')
const say = document.getElementById('say')
let socket

function line(text, kind = 'message') {
  const item = document.createElement('li')
  item.className = kind
  item.textContent = text // text, never HTML: what others typed is shown, not run
  log.append(item)
  item.scrollIntoView({ block: 'end' })
}

const show = (message) => line(`${message.author}: ${message.body}`)

const handlers = {
  history: (event) => event.messages.forEach(show),
  message: (event) => show(event.message),
  joined: (event) => line(`${event.name} joined`, 'notice'),
  left: (event) => line(`${event.name} left`, 'notice'),
  error: (event) => line(`Not sent: ${Object.values(event.errors).flat().join(', ')}`, 'error'),
}

join.addEventListener('submit', (e) => {
  e.preventDefault()
  socket?.close()
  log.replaceChildren()
  const room = join.room.value
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  socket = new WebSocket(
    `${scheme}://${location.host}/ws/rooms/${room}?name=${encodeURIComponent(join.nickname.value)}`,
  )
  socket.addEventListener('open', () => {
    say.hidden = false
    say.body.focus()
  })
  socket.addEventListener('message', (e) => {
    const event = JSON.parse(e.data)
    handlers[event.type]?.(event)
  })
  socket.addEventListener('close', () => {
    say.hidden = true
    line('Disconnected', 'notice')
  })
})

say.addEventListener('submit', (e) => {
  e.preventDefault()
  socket.send(JSON.stringify({ body: say.body.value }))
  say.reset()
})
