/* Notices written without signal, kept on the phone (IndexedDB) until the network returns.
   Shared by the notice form (notice-form.js) and the service worker (notice-sw.js): each record
   is sent to the API with its own Idempotency-Key, so a notice sent twice (by the page and by the
   worker, or after a dropped answer) is drawn up once. */
(function (scope) {
  "use strict";
  var DB = "lotacao-autos";
  var STORE = "pendentes";
  var PHOTOS = "fotos";

  function open() {
    return new Promise(function (resolve, reject) {
      var request = scope.indexedDB.open(DB, 2);
      request.onupgradeneeded = function () {
        var db = request.result;
        if (!db.objectStoreNames.contains(STORE)) { db.createObjectStore(STORE, { keyPath: "key" }); }
        if (!db.objectStoreNames.contains(PHOTOS)) { db.createObjectStore(PHOTOS, { keyPath: "key" }); }
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work, store) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(store || STORE, mode);
        var result = work(tx.objectStore(store || STORE));
        tx.oncomplete = function () { db.close(); resolve(result && result.result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function put(record) { return run("readwrite", function (s) { return s.put(record); }); }
  function remove(key) { return run("readwrite", function (s) { return s.delete(key); }); }
  function all() { return run("readonly", function (s) { return s.getAll(); }); }

  /* The photos chosen before "Ver penalidade", kept for the page that comes back (a file input
     is emptied by every page load), under the notice's idempotency key. */
  function keepPhotos(key, files) {
    return run("readwrite", function (s) { return s.put({ key: key, files: files }); }, PHOTOS);
  }
  function takePhotos(key) {
    return run("readonly", function (s) { return s.get(key); }, PHOTOS).then(function (found) {
      return run("readwrite", function (s) { return s.delete(key); }, PHOTOS).then(function () {
        return found ? found.files : [];
      });
    });
  }

  var flushing = null;

  /* Send every kept notice; resolves to [{key, status, body}] of those answered. A network
     failure stops the round (the next `online` or sync event tries again). */
  function flush() {
    if (flushing) { return flushing; }
    flushing = all().then(function (records) {
      var answered = [];
      var chain = Promise.resolve();
      (records || []).forEach(function (record) {
        chain = chain.then(function () {
          return scope.fetch(record.api, {
            method: "POST",
            credentials: "same-origin",
            headers: {
              "Content-Type": "application/json",
              "Idempotency-Key": record.key,
              "X-CSRFToken": record.csrf
            },
            body: JSON.stringify(record.payload)
          }).then(function (response) {
            return response.json().catch(function () { return {}; }).then(function (body) {
              answered.push({ key: record.key, status: response.status, body: body });
              if (response.status === 201 || response.status === 200) { return remove(record.key); }
              if (response.status === 422 || response.status === 400 || response.status === 403) {
                record.error = body.detail || body.title || "Recusado";
                record.errors = body.errors || [];
                return put(record);
              }
              return null; /* 409 (still running) or a server error: try again later */
            });
          });
        });
      });
      return chain.then(function () { return answered; }, function () { return answered; });
    });
    return flushing.then(function (answered) { flushing = null; return answered; },
      function (error) { flushing = null; throw error; });
  }

  scope.NoticeQueue = {
    put: put, remove: remove, all: all, flush: flush, keepPhotos: keepPhotos, takePhotos: takePhotos
  };
})(self);
