/* Service worker of the notice pages (served at /fiscalizacao/autos/sw.js, so its scope is only
   /fiscalizacao/autos/): keeps the new-notice page and its static files for use without signal,
   and sends the notices kept on the phone when the network returns (Background Sync where the
   browser has it; the page also sends them on its `online` event). */
"use strict";
var params = new URL(self.location.href).searchParams;
importScripts(params.get("queue"));

var CACHE = "lotacao-autos-v1";
var FORM_PATH = new URL("novo/", self.registration.scope).pathname;

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function keep(request, response) {
  if (response && response.ok && response.type === "basic") {
    var copy = response.clone();
    caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
  }
  return response;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  var isForm = url.pathname === FORM_PATH;
  var isStatic = url.pathname.indexOf("/static/") === 0;
  if (!isForm && !isStatic) { return; }
  event.respondWith(
    fetch(request).then(function (response) { return keep(request, response); }).catch(function () {
      return caches.match(request, { ignoreSearch: isForm }).then(function (hit) {
        return hit || caches.match(FORM_PATH, { ignoreSearch: true });
      });
    })
  );
});

function tell(answered) {
  return self.clients.matchAll({ type: "window" }).then(function (clients) {
    clients.forEach(function (client) { client.postMessage({ kind: "sent", answered: answered }); });
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag === "autos-pendentes") { event.waitUntil(self.NoticeQueue.flush().then(tell)); }
});

self.addEventListener("message", function (event) {
  if (event.data === "flush") { event.waitUntil(self.NoticeQueue.flush().then(tell)); }
});
