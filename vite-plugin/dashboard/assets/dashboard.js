// The Vela dashboard's client script: on the request list, rows for new requests arrive over
// Server-Sent Events (/__vela/events) and are added on top when they pass the page's filters.
'use strict'
;(function () {
  if (document.body.dataset.page !== 'requests') return
  var tbody = document.querySelector('#requests tbody')
  var params = new URLSearchParams(location.search)
  var filter = { status: (params.get('status') || '').trim().toLowerCase(), route: params.get('route') || '', text: (params.get('text') || '').trim().toLowerCase() }

  function passes(r) {
    var code = String(r.status)
    if (filter.status) {
      if (/^[1-5]xx$/.test(filter.status) ? code[0] !== filter.status[0] : code !== filter.status) return false
    }
    if (filter.route && r.route.indexOf(filter.route) === -1) return false
    // Text also searches logs and SQL, which only the server holds: the next reload shows those.
    if (filter.text && (r.method + ' ' + r.path + ' ' + r.route + ' ' + r.error).toLowerCase().indexOf(filter.text) === -1) return false
    return true
  }

  function cell(text) {
    var td = document.createElement('td')
    td.textContent = text
    return td
  }

  function row(r) {
    var tr = document.createElement('tr')
    tr.dataset.id = r.id
    tr.className = r.statusClass + ' new'
    var path = cell('')
    path.className = 'path'
    var a = document.createElement('a')
    a.href = '/__vela/requests/' + encodeURIComponent(r.id)
    a.textContent = r.path
    path.appendChild(a)
    var route = cell(r.route)
    route.className = 'route'
    var status = cell(String(r.status))
    status.className = 'status'
    ;[cell(r.time), cell(r.method), path, route, status, cell(r.duration), cell(String(r.size)), cell(String(r.queries)), cell(r.client)].forEach(function (td) {
      tr.appendChild(td)
    })
    return tr
  }

  var events = new EventSource('/__vela/events')
  events.addEventListener('request', function (e) {
    var r = JSON.parse(e.data)
    if (!passes(r)) return
    var empty = document.querySelector('.empty')
    if (empty) empty.remove()
    tbody.insertBefore(row(r), tbody.firstChild)
  })
})()
