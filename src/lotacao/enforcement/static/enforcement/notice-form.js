/* The inspector's notice form on the phone (progressive enhancement: without this script the
   form still works with its plain select and fields).
   - infraction picker: searches the law's list by words (accents optional) and by item
     ("42 XV a", "G2-b"), filtering the select;
   - position: fills latitude and longitude from the phone (still editable);
   - without signal: keeps the notice on the phone (notice-queue.js) and sends it to the API with
     its Idempotency-Key when the network returns; registers the service worker (notice-sw.js). */
(function () {
  "use strict";
  var app = document.getElementById("enf-app");
  var form = document.getElementById("enf-form");
  if (!app || !form) { return; }

  function fold(text) {
    return (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/\bart(igo)?\b\.?/g, " ").replace(/[^a-z0-9]+/g, " ").trim();
  }

  var preview = document.getElementById("enf-preview");
  if (preview) { preview.scrollIntoView({ block: "start" }); }

  /* ---------------------------------------------------------------- picker */
  var select = form.querySelector("select[data-picker]");
  if (select) {
    var field = select.parentNode; /* the field's wrapper (.field, or the DS's .br-input) */
    var search = document.createElement("input");
    search.type = "search";
    search.id = "enf-busca-infracao";
    search.autocomplete = "off";
    search.placeholder = "Palavras ou item da lei (ex.: lotação, 42 XV a)";
    var label = document.createElement("label");
    label.htmlFor = search.id;
    label.textContent = "Buscar infração";
    var count = document.createElement("small");
    count.setAttribute("aria-live", "polite");
    field.insertBefore(count, select);
    field.insertBefore(search, count);
    field.insertBefore(label, search);
    var options = Array.prototype.slice.call(select.options).map(function (option) {
      return { option: option, words: fold(option.text + " " + option.value).split(" ") };
    });
    var filter = function () {
      var tokens = fold(search.value).split(" ").filter(Boolean);
      var shown = 0;
      var last = null;
      options.forEach(function (item) {
        if (!item.option.value) { return; }
        var hit = tokens.every(function (token) {
          return item.words.some(function (word) { return word.indexOf(token) === 0; });
        });
        item.option.hidden = !hit;
        item.option.disabled = !hit;
        if (hit) { shown += 1; last = item.option; }
      });
      if (!tokens.length) {
        select.size = 0;
        count.textContent = "";
        return;
      }
      select.size = Math.max(2, Math.min(shown + 1, 7));
      count.textContent = shown === 1 ? "1 infração encontrada" :
        shown + " infrações encontradas";
      if (shown === 1) { select.value = last.value; }
    };
    search.addEventListener("input", filter);
    search.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); select.focus(); }
    });
    select.addEventListener("change", function () {
      if (select.value) { select.size = 0; }
    });
  }

  /* ---------------------------------------------------------------- position */
  var locate = document.getElementById("enf-locate");
  var lat = form.querySelector("[name=evidence_latitude]");
  var lon = form.querySelector("[name=evidence_longitude]");
  var locStatus = document.getElementById("enf-locate-status");
  function position() {
    if (!navigator.geolocation) { return; }
    locStatus.textContent = "Obtendo a posição do aparelho…";
    navigator.geolocation.getCurrentPosition(function (where) {
      lat.value = where.coords.latitude.toFixed(6);
      lon.value = where.coords.longitude.toFixed(6);
      locStatus.textContent = "Posição do aparelho (precisão de " +
        Math.round(where.coords.accuracy) + " m); pode ser corrigida.";
    }, function () {
      locStatus.textContent = "Posição indisponível: informe latitude e longitude se tiver.";
    }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
  }
  if (locate && lat && lon && navigator.geolocation) {
    locate.hidden = false;
    locate.addEventListener("click", position);
    if (!lat.value && !lon.value) { position(); }
  }

  /* ---------------------------------------------------------------- offline */
  var banner = document.getElementById("enf-offline");
  var queueBox = document.getElementById("enf-queue");
  var queue = window.NoticeQueue;

  function say(text) { banner.textContent = text; banner.hidden = !text; }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return Date.now().toString(16) + Math.random().toString(16).slice(2);
  }

  function value(name) {
    var el = form.querySelector("[name=" + name + "]");
    return el ? el.value.trim() : "";
  }

  /* "30/10/2027 14:05" in the jurisdiction's time → ISO 8601 with its offset */
  function isoMoment(text) {
    var m = /^(\d{2})\/(\d{2})\/(\d{4})\s+(\d{2}):(\d{2})/.exec(text);
    if (!m) { return null; }
    return m[3] + "-" + m[2] + "-" + m[1] + "T" + m[4] + ":" + m[5] + ":00" + app.dataset.offset;
  }

  function payload() {
    var line = value("line");
    return {
      jurisdiction: app.dataset.jurisdiction,
      drawn_up_at: isoMoment(value("drawn_up_at")),
      offender_kind: value("offender_kind"),
      infraction_code: value("infraction_code"),
      infraction_group: value("infraction_group"),
      place: value("place"),
      description: value("description"),
      plate: value("plate"),
      line_id: line ? parseInt(line, 10) : null,
      link_by_plate: true,
      offender_name: value("offender_name"),
      offender_document: value("offender_document"),
      evidence_latitude: value("evidence_latitude") || null,
      evidence_longitude: value("evidence_longitude") || null,
      reason: "Auto de infração lavrado em campo sem sinal e enviado quando a rede voltou"
    };
  }

  function showQueue() {
    if (!queue) { return Promise.resolve(); }
    return queue.all().then(function (records) {
      var list = queueBox.querySelector("ul");
      list.textContent = "";
      (records || []).forEach(function (record) {
        var item = document.createElement("li");
        var text = (record.payload.plate || "sem placa") + " — " + record.when;
        text += record.error ? ": recusado — " + record.error : ": aguardando sinal para enviar";
        item.textContent = text;
        list.appendChild(item);
      });
      queueBox.hidden = !(records && records.length);
    });
  }

  function sendKept() {
    if (!queue || !navigator.onLine) { return; }
    queue.flush().then(function (answered) {
      var sent = answered.filter(function (a) { return a.status === 201 || a.status === 200; });
      if (sent.length) {
        say(sent.length === 1 ? "Auto " + sent[0].body.number + " enviado." :
          sent.length + " autos enviados: " + sent.map(function (a) { return a.body.number; }).join(", ") + ".");
      }
      return showQueue();
    });
  }

  /* photos survive "Ver penalidade" and "Consultar placa": kept on the phone, put back after */
  var photoInput = form.querySelector("[name=photos]");
  var keyInput = form.querySelector("[name=idempotency_key]");
  if (queue && photoInput && keyInput && window.DataTransfer) {
    queue.takePhotos(keyInput.value).then(function (files) {
      if (!files || !files.length || photoInput.files.length) { return; }
      var transfer = new DataTransfer();
      files.forEach(function (file) { transfer.items.add(file); });
      photoInput.files = transfer.files;
    }).catch(function () { return null; });
  }

  form.addEventListener("submit", function (event) {
    var button = event.submitter;
    var staying = button && (button.name === "consult" || button.name === "preview");
    if (navigator.onLine && staying && queue && photoInput && photoInput.files.length && keyInput) {
      event.preventDefault();
      var files = Array.prototype.slice.call(photoInput.files);
      queue.keepPhotos(keyInput.value, files).catch(function () { return null; }).then(function () {
        photoInput.value = "";
        form.requestSubmit(button);
      });
      return;
    }
    if (navigator.onLine || !queue) { return; }
    if (button && (button.name === "consult" || button.name === "preview")) {
      event.preventDefault();
      say("Sem sinal: a consulta da placa e o cálculo da penalidade precisam da rede. " +
        "Você pode lavrar o auto; ele fica guardado no aparelho.");
      return;
    }
    event.preventDefault();
    var data = payload();
    if (!data.drawn_up_at) { say("Informe a data e a hora como dd/mm/aaaa hh:mm."); return; }
    var csrf = form.querySelector("[name=csrfmiddlewaretoken]");
    var record = {
      key: newKey(),
      api: app.dataset.api,
      csrf: csrf ? csrf.value : "",
      payload: data,
      when: value("drawn_up_at")
    };
    queue.put(record).then(function () {
      say("Sem sinal: o auto foi guardado no aparelho e será enviado quando a rede voltar." +
        (form.querySelector("[name=photos]") && form.querySelector("[name=photos]").files.length ?
          " As fotos não vão junto: anexe-as no auto depois." : ""));
      form.reset();
      var key = form.querySelector("[name=idempotency_key]");
      if (key) { key.value = newKey(); }
      if (navigator.serviceWorker && navigator.serviceWorker.ready) {
        navigator.serviceWorker.ready.then(function (registration) {
          if (registration.sync) { return registration.sync.register("autos-pendentes"); }
          return null;
        }).catch(function () { return null; });
      }
      return showQueue();
    });
  });

  window.addEventListener("online", function () { say(""); sendKept(); });
  window.addEventListener("offline", function () {
    say("Sem sinal: os autos lavrados ficam guardados no aparelho até a rede voltar.");
  });
  if (navigator.serviceWorker) {
    var swUrl = app.dataset.sw + "?queue=" + encodeURIComponent(app.dataset.queue);
    navigator.serviceWorker.register(swUrl, { scope: app.dataset.scope }).catch(function () { return null; });
    navigator.serviceWorker.addEventListener("message", function () { showQueue(); });
  }
  if (!navigator.onLine) {
    say("Sem sinal: os autos lavrados ficam guardados no aparelho até a rede voltar.");
  }
  showQueue().then(sendKept);
})();
