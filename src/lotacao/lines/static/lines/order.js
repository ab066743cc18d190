/* The service-order editor: as the clerk types, the periods are sent to the check address
   (data-check-url on the form, GET, nothing is written) and the law's findings are shown in
   #order-checks, each with its article. The server runs the same checks again on submit. */
(function () {
  "use strict";
  var form = document.getElementById("order-form");
  var out = document.getElementById("order-checks");
  if (!form || !out) { return; }
  var timer = null;

  function show(findings) {
    out.textContent = "";
    if (!findings.length) {
      var ok = document.createElement("li");
      ok.className = "ok";
      ok.textContent = "Nenhuma irregularidade encontrada nos períodos informados.";
      out.appendChild(ok);
      return;
    }
    findings.forEach(function (f) {
      var li = document.createElement("li");
      li.className = f.severity === "error" ? "error" : "warning";
      li.textContent = f.text;
      out.appendChild(li);
    });
  }

  function check() {
    var params = new URLSearchParams();
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.name && (/^p\d+_/.test(el.name) || el.name === "valid_from")) { params.append(el.name, el.value); }
    });
    fetch(form.dataset.checkUrl + "?" + params.toString(), { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (body) { show(body.findings || []); })
      .catch(function () { /* the submit checks again */ });
  }

  form.addEventListener("input", function () {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(check, 300);
  });
  form.addEventListener("change", check);
})();
