/* Installable and honest about the network: registers the service worker, and shows the offline note
 * (#offline-note in base.html) while the phone has no network or when a request of the page could not
 * reach the server, so a tap that did nothing never looks like a tap that worked. */
(function () {
  "use strict";

  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
        /* a browser that refuses workers (private mode) still has every page online */
      });
    });
  }

  function note() { return document.getElementById("offline-note"); }

  function show(offline) {
    const element = note();
    if (element) {
      element.hidden = !offline;
    }
  }

  window.addEventListener("offline", function () { show(true); });
  window.addEventListener("online", function () { show(false); });
  document.addEventListener("htmx:sendError", function () { show(true); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status) {
      show(false);
    }
  });
  document.addEventListener("DOMContentLoaded", function () { show(!navigator.onLine); });
})();
