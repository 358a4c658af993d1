// The Vela dashboard's client script: on the request list, rows for new requests arrive over
// Server-Sent Events (/__vela/events) and are added on top when they pass the page's filters; on
// the app page, the charts are redrawn (fetched from /__vela/charts, drawn by the server) as
// requests arrive, at most once a second, and every ten seconds as time passes.
'use strict'
;(function () {
  if (document.body.dataset.page === 'app') return liveCharts()
  if (document.body.dataset.page !== 'requests') return
  var tbody = document.querySelector('#requests tbody')
  var params = new URLSearchParams(location.search)
  var filter = {
    status: (params.get('status') || '').trim().toLowerCase(),
    route: params.get('route') || '',
    text: (params.get('text') || '').trim().toLowerCase(),
  }

  function passes(r) {
    var code = String(r.status)
    if (filter.status) {
      if (/^[1-5]xx$/.test(filter.status) ? code[0] !== filter.status[0] : code !== filter.status) return false
    }
    if (filter.route && r.route.indexOf(filter.route) === -1) return false
    // Text also searches logs and SQL, which only the server holds: the next reload shows those.
    if (
      filter.text &&
      (r.method + ' ' + r.path + ' ' + r.route + ' ' + r.error).toLowerCase().indexOf(filter.text) === -1
    )
      return false
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
    ;[
      cell(r.time),
      cell(r.method),
      path,
      route,
      status,
      cell(r.duration),
      cell(String(r.size)),
      cell(String(r.queries)),
      cell(r.client),
    ].forEach(function (td) {
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

  function liveCharts() {
    var pending = false
    var last = 0
    function refresh() {
      pending = false
      last = Date.now()
      fetch('/__vela/charts', { credentials: 'same-origin' })
        .then(function (res) {
          return res.ok ? res.text() : null
        })
        .then(function (html) {
          var current = document.getElementById('charts')
          if (html && current) current.outerHTML = html
        })
        .catch(function () {})
    }
    function soon() {
      if (pending) return
      pending = true
      setTimeout(refresh, Math.max(0, 1000 - (Date.now() - last)))
    }
    new EventSource('/__vela/events').addEventListener('request', soon)
    setInterval(soon, 10000)
  }
})()
