/* The live board polls only while someone can see it: a hidden page (a locked phone, another tab) sends
 * nothing, and coming back asks at once instead of waiting for the next tick. The polling itself is
 * htmx's (hx-trigger="every 2s" on #live-board); this only cancels the ticks of a hidden page. */
(function () {
  "use strict";
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.hidden && event.detail.elt.hasAttribute("data-live")) {
      event.preventDefault();
    }
  });
  document.addEventListener("visibilitychange", function () {
    const board = document.querySelector("[data-live]");
    if (!document.hidden && board && window.htmx) {
      window.htmx.trigger(board, "live-refresh");
    }
  });
})();
