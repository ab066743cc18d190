/* Line maps (Leaflet, served from our own static files). No inline script: the data comes from a
   <script type="application/json" id="line-map-data"> and the map's data-* attributes.

   Display: the itinerary as a line, the stops as circles with their names.
   Editing (data-editing="1"): "Desenhar itinerário" adds a point of the path at each click on the
   map, "Marcar pontos" adds a stop; each stop gets a name field and a kind (ponto ou terminal). The
   hidden inputs #id_itinerary ([lon, lat] pairs) and #id_stops ({name, lat, lon, kind}) carry what
   was drawn to the server, which checks it against the law. */
(function () {
  "use strict";
  var box = document.getElementById("line-map");
  if (!box || !window.L) { return; }
  var source = document.getElementById("line-map-data");
  var data = source ? JSON.parse(source.textContent) : { itinerary: [], stops: [] };
  var editing = box.dataset.editing === "1";
  var map = L.map(box, { zoomControl: true });
  if (box.dataset.tiles) {
    L.tileLayer(box.dataset.tiles, { maxZoom: 19, attribution: box.dataset.attribution || "" }).addTo(map);
  }
  var path = [];
  var stops = [];
  var itineraryInput = document.getElementById("id_itinerary");
  var stopsInput = document.getElementById("id_stops");
  if (editing && itineraryInput && itineraryInput.value) {
    JSON.parse(itineraryInput.value).forEach(function (p) { path.push([p[1], p[0]]); });
  } else {
    data.itinerary.forEach(function (p) { path.push(p); });
  }
  if (editing && stopsInput && stopsInput.value) {
    stops = JSON.parse(stopsInput.value);
  } else {
    stops = data.stops.slice();
  }
  var line = L.polyline(path, { color: "#0b5394", weight: 5 }).addTo(map);
  var markers = L.layerGroup().addTo(map);
  var mode = "path";

  function draw() {
    line.setLatLngs(path);
    markers.clearLayers();
    stops.forEach(function (s, i) {
      var terminal = s.kind === "terminal";
      L.circleMarker([s.lat, s.lon], {
        radius: terminal ? 9 : 6, color: "#222", weight: 2,
        fillColor: terminal ? "#cc0000" : "#ffffff", fillOpacity: 1
      }).bindTooltip((i + 1) + ". " + (s.name || "Ponto")).addTo(markers);
    });
    if (!editing) { return; }
    itineraryInput.value = JSON.stringify(path.map(function (p) { return [round(p[1]), round(p[0])]; }));
    stopsInput.value = JSON.stringify(stops);
    var count = document.getElementById("map-counts");
    if (count) { count.textContent = path.length + " pontos no itinerário, " + stops.length + " paradas"; }
  }

  function round(x) { return Math.round(x * 1e7) / 1e7; }

  function stopList() {
    var list = document.getElementById("stop-list");
    if (!list) { return; }
    list.textContent = "";
    stops.forEach(function (s, i) {
      var row = document.createElement("li");
      var name = document.createElement("input");
      name.type = "text";
      name.value = s.name || "";
      name.setAttribute("aria-label", "Nome do ponto " + (i + 1));
      name.className = "stop-name";
      name.addEventListener("input", function () { s.name = name.value; draw(); });
      var kind = document.createElement("select");
      kind.setAttribute("aria-label", "Tipo do ponto " + (i + 1));
      [["stop", "Ponto de parada"], ["terminal", "Terminal"]].forEach(function (o) {
        var opt = document.createElement("option");
        opt.value = o[0];
        opt.textContent = o[1];
        opt.selected = (s.kind || "stop") === o[0];
        kind.appendChild(opt);
      });
      kind.addEventListener("change", function () { s.kind = kind.value; draw(); });
      var coords = document.createElement("small");
      coords.textContent = " " + s.lat.toFixed(6) + ", " + s.lon.toFixed(6) + " ";
      row.appendChild(name);
      row.appendChild(kind);
      row.appendChild(coords);
      list.appendChild(row);
    });
  }

  function setMode(next) {
    mode = next;
    document.querySelectorAll("[data-map-mode]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.mapMode === mode ? "true" : "false");
    });
  }

  if (editing) {
    map.on("click", function (e) {
      if (mode === "path") {
        path.push([e.latlng.lat, e.latlng.lng]);
      } else {
        stops.push({ name: "Ponto " + (stops.length + 1), lat: round(e.latlng.lat), lon: round(e.latlng.lng),
                     kind: stops.length === 0 ? "terminal" : "stop" });
        stopList();
      }
      draw();
    });
    document.querySelectorAll("[data-map-mode]").forEach(function (b) {
      b.addEventListener("click", function () { setMode(b.dataset.mapMode); });
    });
    var undo = document.getElementById("map-undo");
    if (undo) {
      undo.addEventListener("click", function () {
        if (mode === "path") { path.pop(); } else { stops.pop(); stopList(); }
        draw();
      });
    }
    setMode("path");
    stopList();
  }
  var bounds = path.length ? L.latLngBounds(path) : null;
  stops.forEach(function (s) { bounds = bounds ? bounds.extend([s.lat, s.lon]) : L.latLngBounds([[s.lat, s.lon]]); });
  if (bounds && bounds.isValid()) {
    map.fitBounds(bounds.pad(0.2));
  } else {
    map.setView([parseFloat(box.dataset.lat || "-15.8"), parseFloat(box.dataset.lon || "-47.9")],
                parseInt(box.dataset.zoom || "13", 10));
  }
  draw();
})();
