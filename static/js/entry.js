/* The event entry (web/entry): what plain htmx cannot do on its own.
 *
 * - A kong is recorded at its third tap, once its maker and kind (and a direct kong's feeder) are chosen.
 * - After a write the server sends the seats, header, history and end card, never the form: this script
 *   resets the choices and follows the new hand (seats out of it greyed, 天胡 for the dealer only, names).
 * - The entry has one tile picker; opening a seat's "enter the tiles" moves it there and binds it to that
 *   seat's boxes.
 * - Choosing what happened (杠 / 胡 / 流局 / 逃跑) brings its step to the top of the screen; the end card,
 *   recorded from the bar at the bottom, is brought into view when it appears.
 * - It holds a live page's poll (live.js's "live:hold") while this phone enters an event: what counts and
 *   why, docs/pages.md, "Live view".
 * - 改 on an event of the list fills the form in place with that event's choices (the server's, in the
 *   link's data-choices), offers the seats as the event found them, and previews; 保存 / 删除 post with
 *   the form's edit index, 取消 resets (docs/pages.md, "Changing an event"). Without script the link opens
 *   ?edit=K, the same form filled in by the server.
 */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  const form = document.querySelector("form[data-entry-form]");
  if (!form) return;

  function chosen(name) {
    const input = form.querySelector("input[name=" + name + "]:checked");
    return input ? input.value : null;
  }

  const editIndex = form.querySelector("[data-edit-index]");
  function editing() { return editIndex.value !== ""; }

  function kongComplete() {
    // A kong being changed is saved with 保存, never at its third tap: that would record a new one.
    if (editing() || chosen("ev_type") !== "kong" || chosen("kong_player") === null) return false;
    const kind = chosen("kong_kind");
    return kind !== null && (kind !== "direct" || chosen("kong_from") !== null);
  }

  document.addEventListener("change", function (event) {
    if (!form.contains(event.target) || !kongComplete()) return;
    // The preview this change would ask for is not needed: record at once instead.
    event.stopPropagation();
    // A click, not requestSubmit(): htmx sends the button's name and value only for a clicked button.
    form.querySelector(".entrybar__record").click();
  }, true);

  // Choosing what happened brings its step to the top of the screen (below the sticky top bar: the page's
  // scroll-padding-top), so every choice of a common win is above the action bar without a scroll.
  form.addEventListener("change", function (event) {
    if (event.target.name === "ev_type") form.querySelector(".steps").scrollIntoView({ block: "start" });
  });

  // The tile picker, one for the whole entry.
  const pickerRoot = form.querySelector("[data-entry-picker]");
  let picker = null;
  let pickerFor = null;
  const handsByBox = new Map();
  if (pickerRoot && window.sczmjPicker) {
    picker = window.sczmjPicker.create(pickerRoot, {
      fields: null,
      winning: function () { return pickerFor !== null && pickerFor.dataset.tiles.indexOf("draw") !== 0; },
      onChange: function (fields) {
        handsByBox.set(fields.concealed.name, picker.state());
        fields.concealed.dispatchEvent(new Event("change", { bubbles: true }));
      },
    });
  }

  form.addEventListener("toggle", function (event) {
    const details = event.target;
    if (!details.matches || !details.matches("[data-by-tiles]") || !picker) return;
    if (!details.open) {
      if (pickerFor === details) { pickerRoot.hidden = true; pickerFor = null; }
      return;
    }
    form.querySelectorAll("[data-by-tiles][open]").forEach(function (other) { if (other !== details) other.open = false; });
    pickerFor = details;
    details.querySelector("[data-picker-slot]").append(pickerRoot);
    pickerRoot.hidden = false;
    const fields = { concealed: form.elements[details.dataset.tiles], melds: form.elements[details.dataset.melds] };
    picker.bind(fields, handsByBox.get(details.dataset.tiles));
  }, true);

  // A hand the server has moved on: reset the choices and follow it (``seats``: #entry-seats, or 改's link,
  // which carries the seats as its event found them).
  function follow(seats) {
    const out = new Set(seats.dataset.out.split(" ").filter(Boolean));
    const settled = new Set((seats.dataset.settled || "").split(" ").filter(Boolean));  // not asked at a 流局
    const dealer = document.getElementById("entry-seats").dataset.dealer;
    form.reset();
    editIndex.value = "";  // a hidden input's value is its attribute: reset() keeps it
    document.querySelectorAll(".event--editing").forEach(function (event) { event.classList.remove("event--editing"); });
    handsByBox.clear();
    form.querySelectorAll("[data-by-tiles][open]").forEach(function (details) { details.open = false; });
    form.querySelectorAll("input[data-seat]").forEach(function (input) {
      input.disabled = out.has(input.dataset.seat);
    });
    form.querySelectorAll("[data-seat-row]").forEach(function (row) { row.hidden = out.has(row.dataset.seatRow); });
    form.querySelectorAll("[data-draw-row]").forEach(function (row) { row.hidden = settled.has(row.dataset.drawRow); });
    form.querySelectorAll("[data-dealer-only]").forEach(function (input) { input.disabled = input.dataset.dealerOnly !== dealer; });
    form.querySelectorAll("[data-not-dealer]").forEach(function (input) { input.disabled = input.dataset.notDealer === dealer; });
    seats.querySelectorAll("[data-seat-name]").forEach(function (seat, index) {
      document.querySelectorAll("[data-name-of='" + index + "']").forEach(function (label) {
        label.textContent = seat.dataset.seatName;
      });
    });
  }

  // 改: the event's choices into the form, the seats as it found them, then a preview of the hand changed.
  function fill(choices) {
    Object.keys(choices).forEach(function (name) {
      form.querySelectorAll("[name='" + name + "']").forEach(function (input) {
        if (input.type === "radio") input.checked = input.value === choices[name];
        else if (input.type === "checkbox") input.checked = true;
        else input.value = choices[name];
      });
    });
  }
  document.addEventListener("click", function (event) {
    const link = event.target.closest ? event.target.closest("[data-edit]") : null;
    if (link) {
      event.preventDefault();
      follow(link);
      fill(JSON.parse(link.dataset.choices));
      editIndex.value = link.dataset.edit;
      link.closest(".event").classList.add("event--editing");
      form.querySelector(".steps").scrollIntoView({ block: "start" });
      form.querySelector("input[name=ev_type]:checked").dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    if (event.target.closest && event.target.closest("[data-edit-cancel]")) {
      event.preventDefault();
      follow(document.getElementById("entry-seats"));
      document.getElementById("entry-bar").replaceChildren();
    }
  });

  // 座位与规则, open on arrival, is closed by the first write of the entry (not by a change of the setup).
  // Read as each answer is swapped, not as its request leaves: a poll may leave while a tap is on its way.
  // (htmx:beforeSwap's detail.elt is the swap's target; the element that asked is the request's.)
  let fromEntry = false;
  document.addEventListener("htmx:beforeSwap", function (event) { fromEntry = form.contains(event.detail.requestConfig.elt); });

  let inFlight = 0;
  document.addEventListener("htmx:beforeSend", function (event) { if (form.contains(event.detail.elt)) inFlight += 1; });
  document.addEventListener("htmx:afterRequest", function (event) { if (form.contains(event.detail.elt)) inFlight = Math.max(0, inFlight - 1); });

  function changed(input) {
    if (input.type === "radio" || input.type === "checkbox") return input.checked !== input.defaultChecked;
    if (input.tagName === "SELECT") {  // with no option marked selected, the first one is
      const initial = Array.prototype.findIndex.call(input.options, function (option) { return option.defaultSelected; });
      return input.selectedIndex !== Math.max(initial, 0);
    }
    if (input.tagName === "BUTTON" || input.type === "hidden") return false;
    return input.value !== input.defaultValue;
  }
  document.addEventListener("live:hold", function (event) {
    const busy = inFlight > 0 || form.querySelector("[data-by-tiles][open]") !== null ||
      Array.prototype.some.call(form.elements, changed);
    if (busy) event.preventDefault();
  });

  let ended = document.querySelector("#entry-end .endcard") !== null;
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    const target = event.target;
    if (target.id === "entry-seats") {
      follow(target);
      if (fromEntry) document.querySelectorAll("details[data-close-on-play]").forEach(function (panel) { panel.open = false; });
    }
    if (target.id === "entry-end") {
      const end = target.querySelector(".endcard");
      if (end && !ended) end.scrollIntoView({ block: "start" });
      ended = end !== null;
    }
  });
})();
