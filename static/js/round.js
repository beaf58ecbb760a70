/* The round page: record a complete kong at its third tap, and type tiles from the tile picker.
 *
 * Everything else is plain htmx on the form (every change posts the round and the server re-renders the
 * board with a preview). A kong needs no preview: once its maker and kind (and a direct kong's feeder)
 * are chosen, the script records it. It stops that change from reaching htmx, so the preview request
 * does not replace the recording one.
 */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function chosen(form, name) {
    const input = form.querySelector("input[name=" + name + "]:checked");
    return input ? input.value : null;
  }

  function kongComplete(form) {
    if (chosen(form, "ev_type") !== "kong" || chosen(form, "kong_player") === null) return false;
    const kind = chosen(form, "kong_kind");
    return kind !== null && (kind !== "direct" || chosen(form, "kong_from") !== null);
  }

  // "123m5p" less its last tile is "123m"; "123m" less its last tile is "12m".
  function dropLastTile(text) {
    const grouped = text.trim().match(/^(.*?)(\d+)([^\d\s]+)$/);
    if (!grouped) return "";
    const digits = grouped[2].slice(0, -1);
    return grouped[1] + (digits ? digits + grouped[3] : "");
  }

  // A winner's picker types into that winner's tiles box; the change asks htmx for a new preview.
  document.addEventListener("click", function (event) {
    const pick = event.target.closest("[data-tiles-for] .pick");
    const back = event.target.closest("[data-backspace]");
    if (!pick && !back) return;
    const form = event.target.closest("form");
    const input = form.elements[pick ? pick.closest("[data-tiles-for]").dataset.tilesFor : back.dataset.backspace];
    input.value = pick ? input.value + pick.dataset.tile : dropLastTile(input.value);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // The board (form included) is re-rendered by every response. A response to a request sent before the
  // latest change would put back older choices, so it is not swapped in: the request that change made
  // (queued by hx-sync) brings the board up to date.
  let edits = 0;
  document.addEventListener("change", function () { edits += 1; }, true);
  document.addEventListener("htmx:beforeRequest", function (event) { event.detail.xhr.sczmjEdits = edits; });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.sczmjEdits !== edits) event.detail.shouldSwap = false;
  });

  // The event that ends the hand is recorded from the bottom of the form; the end card with 下一手 appears
  // above it, out of sight on a phone: bring it into view once, when it first appears.
  let ended = document.querySelector(".endcard") !== null;
  document.addEventListener("htmx:load", function (event) {
    if (event.detail.elt.id !== "round") return;
    const end = event.detail.elt.querySelector(".endcard");
    if (end && !ended) end.scrollIntoView({ block: "center" });
    ended = end !== null;
  });

  // A panel opened by hand stays open when the board is re-rendered. A panel the server opened (座位与规则
  // before anything is recorded) fires a toggle of its own when parsed, depending on timing before or
  // after this script: that one is not the player's and must not keep the panel open for the evening.
  const opened = new Set();
  const parsedOpen = new WeakSet(document.querySelectorAll("details[data-keep-open][open]"));
  document.addEventListener("toggle", function (event) {
    const key = event.target.dataset && event.target.dataset.keepOpen;
    if (!key) return;
    if (parsedOpen.has(event.target)) {
      parsedOpen.delete(event.target);
      if (event.target.open) return;
    }
    if (event.target.open) opened.add(key); else opened.delete(key);
  }, true);
  document.addEventListener("htmx:load", function (event) {
    event.detail.elt.querySelectorAll("details[data-keep-open]").forEach(function (details) {
      if (opened.has(details.dataset.keepOpen)) details.open = true;
    });
  });

  document.addEventListener("change", function (event) {
    const form = event.target.closest("form[data-round-form]");
    if (!form || !kongComplete(form)) return;
    event.stopPropagation();
    // htmx sends the button that was clicked, and none was: say "record" in a field of its own.
    const action = document.createElement("input");
    action.type = "hidden";
    action.name = "action";
    action.value = "add";
    form.append(action);
    form.requestSubmit();
  }, true);
})();
