/* Live pages poll only while someone can see them, and never over what this phone is doing.
 *
 * - The element marked data-live polls by htmx (hx-trigger="every 2s, live-refresh"): a viewer's board
 *   (templates/ledger/live/watch.html) and a member's session page (#entry-live, web/entry/_entry.html).
 * - A hidden page (a locked phone, another tab) sends nothing; coming back asks at once instead of waiting
 *   for the next tick.
 * - A page may hold its polls: a "live:hold" listener that calls preventDefault() keeps a tick from
 *   leaving and an answer already on its way from being swapped (entry.js: docs/pages.md, "Live view").
 * - An answer whose revision (the X-Live-Revision header) is not newer than the one the page shows (the
 *   data-revision of its data-live element) is not swapped: a tap's answer may overtake a poll that left
 *   before it, and the page must not step back.
 */
(function () {
  "use strict";
  // The element that asked (htmx:beforeSwap's detail.elt is the swap's target): the request's.
  function isPoll(event) {
    return event.detail.requestConfig.elt.hasAttribute("data-live");
  }
  function held() {
    return !document.dispatchEvent(new Event("live:hold", { cancelable: true }));
  }
  function notNewer(xhr) {
    const revision = xhr.getResponseHeader("X-Live-Revision");
    const live = document.querySelector("[data-live]");
    return revision !== null && live !== null && Number(revision) <= Number(live.dataset.revision);
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isPoll(event) && (document.hidden || held())) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (isPoll(event) && (held() || notNewer(event.detail.xhr))) {
      event.detail.shouldSwap = false;
    }
  });
  document.addEventListener("visibilitychange", function () {
    const live = document.querySelector("[data-live]");
    if (!document.hidden && live && window.htmx) {
      window.htmx.trigger(live, "live-refresh");
    }
  });
})();
