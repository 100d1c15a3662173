// The live board: renders the session's board from the server and sends every action to /api.
// The server is the only source of truth: a click sends a request and the page shows the board that
// comes back (and every later change, over Server-Sent Events, or over a WebSocket with ?live=websocket,
// where counter clicks travel as frames too). Both carry the board's live channel: a `board` message
// (the whole board, at once and after each change) and, last, an `ended` message (why, as a JSON string).
// Each message has an id (`epoch-sequence`); a reconnect sends the last one back and resumes. Boards
// carry a version, so an older one arriving late (a slow response after a newer event) is ignored.
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  let shownVersion = -1;
  let events = null;
  let socket = null;
  let lastEventId = null; // the WebSocket's resume point (EventSource keeps its own)
  const channel = new URLSearchParams(location.search).get('live') === 'websocket' ? 'websocket' : 'sse';
  let ended = false;
  let toastTimer = null;
  let shownItems = '';

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : '';
  }

  async function api(method, path, form) {
    const headers = { 'Accept': 'application/json', 'X-XSRF-TOKEN': csrfToken() };
    let body;
    if (form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form);
    }
    let response;
    try {
      response = await fetch(path, { method, headers, body, credentials: 'same-origin' });
    } catch (networkError) {
      toast('The server cannot be reached.');
      return null;
    }
    if (response.status === 204) {
      return null;
    }
    const payload = await response.json().catch(() => null);
    if (!response.ok) {
      if (response.status === 410) {
        showEnded(payload && payload.detail);
      } else {
        toast((payload && payload.detail) || `Request failed (${response.status}).`);
      }
      return null;
    }
    render(payload);
    return payload;
  }

  function render(board) {
    if (!board || board.version < shownVersion) {
      return;
    }
    shownVersion = board.version;
    $('counter').textContent = board.counter;
    $('session-name').textContent = board.context.name;
    renderTick(board.tick);
    renderQuote(board.quote);
    renderItems(board.items);
    renderContext(board);
  }

  function renderTick(tick) {
    if (!tick) {
      return;
    }
    $('clock').textContent = new Date(tick.at).toISOString().substring(11, 19);
    $('price').textContent = Number(tick.price).toFixed(2);
    const change = Number(tick.change);
    const changeEl = $('change');
    changeEl.textContent = (change >= 0 ? '▲ +' : '▼ ') + change.toFixed(2);
    changeEl.className = 'change ' + (change >= 0 ? 'up' : 'down');
  }

  function renderQuote(quote) {
    const el = $('quote');
    el.className = 'quote quote-' + quote.state;
    $('load-quote').disabled = quote.state === 'loading';
    switch (quote.state) {
      case 'loading':
        el.innerHTML = '<span class="spinner"></span>';
        el.append(`Loading ${quote.symbol}… the context stays free meanwhile.`);
        break;
      case 'done':
        el.textContent = `${quote.symbol} ${Number(quote.price).toFixed(2)} — answered in ${quote.tookMillis} ms`;
        break;
      case 'failed':
        el.textContent = quote.message;
        break;
      default:
        el.textContent = 'Ask the (slow) quote service for ACME, GLOBEX, HOOLI, INITECH or UMBRELLA.';
    }
  }

  function renderItems(items) {
    // Rebuild the list only when it changed: replacing the elements on every tick would swallow a
    // click that lands while they are being replaced.
    const key = JSON.stringify(items);
    if (key === shownItems) {
      return;
    }
    shownItems = key;
    const list = $('items');
    list.replaceChildren(...items.map((item) => {
      const li = document.createElement('li');
      li.className = item.done ? 'done' : '';
      li.dataset.id = item.id;
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = item.done;
      box.setAttribute('aria-label', 'Done: ' + item.text);
      box.addEventListener('change', () => api('POST', `/api/items/${item.id}/toggle`));
      const text = document.createElement('span');
      text.className = 'text';
      text.textContent = item.text;
      const remove = document.createElement('button');
      remove.className = 'remove';
      remove.type = 'button';
      remove.title = 'Remove';
      remove.textContent = '×';
      remove.addEventListener('click', () => api('DELETE', `/api/items/${item.id}`));
      li.append(box, text, remove);
      return li;
    }));
    $('items-empty').hidden = items.length > 0;
    $('item-count').textContent = items.length ? `(${items.length})` : '';
  }

  function renderContext(board) {
    const stats = board.context;
    $('stat-queue').textContent = stats.queueDepth;
    $('stat-callbacks').textContent = stats.callbacksRun;
    $('stat-version').textContent = board.version;
    $('stat-tabs').textContent = board.subscribers;
    $('stat-sessions').textContent = board.liveSessions;
    $('stat-faults').textContent = `${stats.unhandled} / ${stats.blocked}`;
    $('stat-thread').textContent = stats.lastThread || '—';
    const kind = /^http-nio|exec-\d+$/.test(stats.lastThread) ? 'inline on the request thread'
      : stats.lastThread ? 'queued, drained on the pool' : '';
    $('stat-thread-kind').textContent = kind;
  }

  function setStatus(state, text) {
    const el = $('status');
    el.dataset.state = state;
    el.textContent = text;
    el.className = 'pill ' + (state === 'live' ? 'pill-live' : state === 'ended' ? 'pill-dead' : 'pill-wait');
  }

  function connect() {
    if (channel === 'websocket') {
      connectSocket();
      return;
    }
    if (events) {
      events.close();
    }
    setStatus('connecting', 'Connecting…');
    events = new EventSource('/api/events');
    events.addEventListener('open', () => setStatus('live', 'Live'));
    events.addEventListener('board', (event) => render(JSON.parse(event.data)));
    events.addEventListener('ended', (event) => showEnded(JSON.parse(event.data)));
    // The server is stopping (its shutdown drain): the stream ends and the browser reconnects by itself, to
    // another node behind a balancer, resuming from the last id it saw (or getting a fresh board there).
    events.addEventListener('going-away', () => setStatus('connecting', 'Server restarting; reconnecting…'));
    events.addEventListener('error', () => {
      if (ended) {
        return;
      }
      if (events.readyState === EventSource.CLOSED) {
        // The server refused the stream outright: the session this page belongs to is gone (410).
        showEnded();
      } else {
        setStatus('connecting', 'Reconnecting…'); // the browser retries by itself
      }
    });
  }

  // The WebSocket live channel (/api/live): the same board and ended messages as the event stream, as
  // frames {"id":…,"event":…,"snapshot":…,"data":…}; an error frame answers a refused click of this tab.
  function connectSocket() {
    if (socket) {
      socket.close();
    }
    setStatus('connecting', 'Connecting…');
    let opened = false;
    const resume = lastEventId ? '?lastEventId=' + encodeURIComponent(lastEventId) : '';
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/live'
      + resume);
    socket = ws;
    ws.addEventListener('open', () => {
      opened = true;
      setStatus('live', 'Live · WebSocket');
    });
    ws.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      lastEventId = message.id;
      if (message.event === 'board') {
        render(message.data);
      } else if (message.event === 'ended') {
        showEnded(message.data);
      } else if (message.event === 'error') {
        toast(message.data.detail);
      }
    });
    ws.addEventListener('close', (event) => {
      if (ended || socket !== ws) {
        return;
      }
      if (!opened) {
        showEnded(); // the handshake was refused (410): the session this page belongs to is gone
        return;
      }
      // 1001: the server is stopping (its shutdown drain); reconnect, to another node behind a balancer.
      setStatus('connecting', event.code === 1001 ? 'Server restarting; reconnecting…' : 'Reconnecting…');
      setTimeout(() => { if (!ended && socket === ws) connectSocket(); }, 1000);
    });
  }

  // Counter clicks go over the socket on the WebSocket channel, as POSTs otherwise.
  function counter(action, path) {
    if (channel === 'websocket' && socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ action }));
    } else {
      api('POST', path);
    }
  }

  function showEnded(reason) {
    ended = true;
    if (events) {
      events.close();
    }
    if (socket) {
      socket.close();
    }
    setStatus('ended', 'Session ended');
    document.body.classList.add('ended');
    if (reason) {
      $('ended-reason').textContent = reason;
    }
    $('ended').hidden = false;
  }

  async function start() {
    ended = false;
    shownVersion = -1;
    lastEventId = null; // a new session has a new channel
    shownItems = '';
    $('ended').hidden = true;
    document.body.classList.remove('ended');
    const board = await api('GET', '/api/board');
    if (board) {
      connect();
    }
  }

  function toast(message) {
    const el = $('toast');
    el.textContent = message;
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
  }

  $('increment').addEventListener('click', () => counter('increment', '/api/counter/increment'));
  $('reset').addEventListener('click', () => counter('reset', '/api/counter/reset'));
  $('channel').textContent = channel === 'websocket' ? 'Use Server-Sent Events' : 'Use a WebSocket';
  $('channel').href = channel === 'websocket' ? '?' : '?live=websocket';
  $('end-session').addEventListener('click', () => api('DELETE', '/api/session'));
  $('restart').addEventListener('click', start);
  $('item-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('item-text');
    api('POST', '/api/items', { text: input.value }).then((board) => { if (board) input.value = ''; });
  });
  $('quote-form').addEventListener('submit', (event) => {
    event.preventDefault();
    api('POST', '/api/quote', { symbol: $('symbol').value });
  });

  start();
})();
