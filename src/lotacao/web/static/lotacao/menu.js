// The main menu collapses behind a button on narrow screens (phones). Without this script the
// menu simply stays open; with it, the button toggles it and says so (aria-expanded).
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js-menu");
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector(".menu-toggle");
    var menu = document.getElementById("menu-principal");
    if (!button || !menu) { return; }
    button.addEventListener("click", function () {
      var open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", open ? "true" : "false");
      menu.classList.toggle("open", open);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
        button.setAttribute("aria-expanded", "false");
        menu.classList.remove("open");
        button.focus();
      }
    });
  });
})();
